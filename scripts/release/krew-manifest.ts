/**
 * The krew plugin manifest of a release (krew/virtgate.yaml): `kubectl krew install
 * --manifest=krew/virtgate.yaml` downloads the CLI tarball from `uri`, refuses it unless its
 * SHA-256 is `sha256`, unpacks it and links `kubectl-virtgate` on PATH to `bin`. The archive is
 * the npm package itself (virtgate-X.Y.Z.tgz, everything under `package/`), so `bin` is the
 * package's own `kubectl-virtgate` bin under that folder. The file is named after the plugin, as
 * krew's index requires.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import { sha256File } from './sha256.ts';

export const KREW_API_VERSION = 'krew.googlecontainertools.github.com/v1alpha2';
export const PLUGIN_NAME = 'virtgate';
/** The executable kubectl runs for `kubectl virtgate`: the package.json bin of that name. */
const PLUGIN_BIN = `kubectl-${PLUGIN_NAME}`;

/** What the manifest takes from package.json: the bin path and the description. */
const packageShape = z.looseObject({
  description: z.string(),
  bin: z.looseObject({ [PLUGIN_BIN]: z.string() }),
});

export interface KrewRelease {
  /** The repository (its package.json). */
  repo: string;
  /** The release version, X.Y.Z (krew wants it with a "v"). */
  version: string;
  /** The CLI tarball the release wrote. */
  archive: string;
  /** Where the release's files are downloaded from: `uri` is this plus the archive's name. */
  downloadUrl: string;
  homepage: string;
}

export async function writeKrewManifest(release: KrewRelease, outDir: string): Promise<string> {
  const pkg = packageShape.parse(JSON.parse(await readFile(path.join(release.repo, 'package.json'), 'utf8')));
  const manifest = {
    apiVersion: KREW_API_VERSION,
    kind: 'Plugin',
    metadata: { name: PLUGIN_NAME },
    spec: {
      version: `v${release.version}`,
      homepage: release.homepage,
      shortDescription: 'Which nodes can really run KubeVirt VMs',
      description: `${pkg.description}\n`,
      caveats: 'virtgate runs on Node.js 24 or newer: `node` on PATH must be one.\n',
      // The CLI is JavaScript (Node.js) with one native module, koffi, whose package carries its
      // binaries; the release is tested on linux/amd64 only, so it claims no other platform.
      platforms: [
        {
          selector: { matchLabels: { os: 'linux', arch: 'amd64' } },
          uri: `${release.downloadUrl.replace(/\/+$/, '')}/${path.basename(release.archive)}`,
          sha256: await sha256File(release.archive),
          // npm pack puts the package under package/; krew links kubectl-virtgate to this file.
          bin: path.posix.join('package', pkg.bin[PLUGIN_BIN]),
        },
      ],
    },
  };
  const destination = path.join(outDir, 'krew');
  await mkdir(destination, { recursive: true });
  const file = path.join(destination, `${PLUGIN_NAME}.yaml`);
  await writeFile(file, stringify(manifest));
  return file;
}
