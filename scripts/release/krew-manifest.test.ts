/**
 * The release's krew manifest, written for an archive made here: its sha256 against one computed
 * from the file independently, and the fields krew requires, read back with the YAML parser.
 * test/integration/release.test.ts holds the real release's manifest to its real tarball.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { tempDir } from '../../test/lab/hosts/paths.ts';
import { KREW_API_VERSION, writeKrewManifest } from './krew-manifest.ts';

interface Platform {
  selector?: { matchLabels?: Record<string, string> };
  uri?: string;
  sha256?: string;
  bin?: string;
}
interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  spec?: { version?: string; shortDescription?: string; description?: string; platforms?: Platform[] };
}

let dir = '';
let remove = async () => {};
let archive = '';

beforeAll(async () => {
  ({ dir, remove } = await tempDir('krew-manifest'));
  // A tarball laid out as npm pack lays out the CLI: everything under package/.
  await mkdir(path.join(dir, 'src/package/dist/cli'), { recursive: true });
  await writeFile(path.join(dir, 'src/package/dist/cli/main.js'), '#!/usr/bin/env node\n', { mode: 0o755 });
  archive = path.join(dir, 'virtgate-1.2.3-rc.1.tgz');
  await execa('tar', ['-czf', archive, '-C', path.join(dir, 'src'), 'package']);
});

afterAll(async () => {
  await remove();
});

describe('the krew manifest of a release', () => {
  it('is krew/virtgate.yaml beside the archive, with the archive\'s sha256, its uri and the kubectl-virtgate bin in it', async () => {
    const out = path.join(dir, 'release');
    const file = await writeKrewManifest({ repo: PACKAGE_ROOT, version: '1.2.3-rc.1', archive, downloadUrl: 'https://example.com/dl/v1.2.3-rc.1/', homepage: 'https://example.com/virtgate' }, out);
    expect(path.relative(out, file)).toBe('krew/virtgate.yaml');
    const manifest = parse(await readFile(file, 'utf8')) as Manifest;
    expect(manifest).toMatchObject({ apiVersion: KREW_API_VERSION, kind: 'Plugin', metadata: { name: 'virtgate' } });
    expect(manifest.apiVersion).toBe('krew.googlecontainertools.github.com/v1alpha2');
    // krew wants a semver with a "v", and both descriptions.
    expect(manifest.spec?.version).toBe('v1.2.3-rc.1');
    expect(manifest.spec?.shortDescription).toMatch(/\S/);
    expect(manifest.spec?.description).toMatch(/KubeVirt/);

    const independent = createHash('sha256').update(await readFile(archive)).digest('hex');
    const platforms = manifest.spec?.platforms ?? [];
    expect(platforms.map((platform) => platform.selector?.matchLabels)).toContainEqual({ os: 'linux', arch: 'amd64' });
    for (const platform of platforms) {
      expect(platform.sha256).toBe(independent);
      expect(platform.uri).toBe('https://example.com/dl/v1.2.3-rc.1/virtgate-1.2.3-rc.1.tgz');
      // What krew links kubectl-virtgate to: package.json's bin of that name, under npm's package/.
      expect(platform.bin).toBe('package/dist/cli/main.js');
      const listed = (await execa('tar', ['-tzf', archive])).stdout.split('\n');
      expect(listed).toContain(platform.bin);
    }
  });
});
