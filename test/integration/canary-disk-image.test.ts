/**
 * The canary's containerDisk as scripts/images.sh builds it from Dockerfile.canary-disk (the
 * docker-archive the real node imports and the release relabels), opened with tar: KubeVirt's
 * layout (the disk alone in /disk, owned by qemu 107:107, read-only, no entrypoint), and the very
 * bytes Debian's nasm makes of canary.asm on this machine, the disk canary/guest/guest.test.ts
 * boots with QEMU.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { CANARY_DISK_PATH } from '../../canary/guest/marker.ts';
import { assembleCanaryDisk, CANARY_DISK_BYTES } from '../lab/kubevirt/canary-guest.ts';

let tmp: string;
let ref: string;
let archive: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'virtgate-canary-disk-'));
  // Builds what is missing for these sources (all three images), else finds them by content hash.
  const built = await execa('bash', [path.join(PACKAGE_ROOT, 'scripts/images.sh')], { stderr: 'inherit', reject: false, timeout: 40 * 60_000 });
  if (built.exitCode !== 0) throw new Error(`scripts/images.sh failed (exit ${built.exitCode}); its output is above. It needs root, buildah and mmdebstrap (docs/development.md)`);
  const line = built.stdout.split('\n').find((row) => row.startsWith('canary-disk '));
  if (!line) throw new Error(`scripts/images.sh named no canary-disk image:\n${built.stdout}`);
  [, ref = '', archive = ''] = line.split(' ');
}, 45 * 60_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const tarJson = async (file: string, member: string): Promise<unknown> => JSON.parse((await execa('tar', ['-xOf', file, member])).stdout);

describe('the canary-disk image (docker-archive)', () => {
  it('holds one file, /disk/canary.img, 107:107 and read-only, in one layer, with no entrypoint', async () => {
    const [manifest] = (await tarJson(archive, 'manifest.json')) as { Config: string; RepoTags: string[]; Layers: string[] }[];
    expect(manifest?.RepoTags).toEqual([ref]);
    expect(ref).toMatch(/^localhost\/virtgate\/canary-disk:[0-9a-f]{16}$/);
    expect(manifest?.Layers).toHaveLength(1);
    const config = (await tarJson(archive, manifest!.Config)) as { architecture: string; os: string; config?: { Entrypoint?: string[] | null; Cmd?: string[] | null; Labels?: Record<string, string> } };
    expect(config).toMatchObject({ architecture: 'amd64', os: 'linux' });
    expect(config.config?.Entrypoint ?? null).toBeNull();
    expect(config.config?.Cmd ?? null).toBeNull();
    expect(config.config?.Labels?.['org.opencontainers.image.title']).toBe('canary-disk');

    const layer = path.join(tmp, 'layer.tar');
    await execa('sh', ['-c', 'tar -xOf "$1" "$2" > "$3"', 'sh', archive, manifest!.Layers[0]!, layer]);
    const rows = (await execa('tar', ['-tvf', layer, '--numeric-owner'])).stdout.split('\n').map((row) => row.trim().split(/\s+/));
    const files = rows.filter(([mode]) => !mode?.startsWith('d')).map(([mode, owner, size, , , name]) => ({ mode, owner, size: Number(size), name }));
    expect(files).toEqual([{ mode: '-r--r--r--', owner: '107/107', size: CANARY_DISK_BYTES, name: CANARY_DISK_PATH.slice(1) }]);
    // Nothing else but the directory that holds it.
    expect(rows.filter(([mode]) => mode?.startsWith('d')).map((row) => row[5])).toEqual(['disk/']);

    const inImage = (await execa('tar', ['-xOf', layer, CANARY_DISK_PATH.slice(1)], { encoding: 'buffer' })).stdout;
    const assembled = await readFile(await assembleCanaryDisk(tmp));
    const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    expect(sha(inImage), 'the image holds the disk this machine assembles from canary.asm').toBe(sha(assembled));
  });
});
