/**
 * A release as a user gets it, for the tests that read it from a registry: `scripts/release.ts`
 * run once into a temp dir, then its chart and images pushed to a LocalRegistry the way
 * docs/release.md says (`helm push`; `buildah pull` of the OCI archive, then `buildah push`).
 */
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';
import { helmOk } from '../chart/helm.ts';
import { tempDir } from '../hosts/paths.ts';
import type { Buildah } from './buildah.ts';
import type { LocalRegistry } from './registry.ts';

export const RELEASE_ROLES = ['agent', 'aggregator'] as const;
export type ReleaseRole = (typeof RELEASE_ROLES)[number];

export interface ReleaseFiles {
  version: string;
  dir: string;
  /** What the release printed: its files, one a line, relative to `dir`. */
  listed: string[];
  seconds: number;
  chartArchive: string;
  imageArchive: (role: ReleaseRole) => string;
  /** The VM canary's containerDisk, `canary-disk-<version>.oci.tar`. */
  canaryDiskArchive: string;
  remove: () => Promise<void>;
}

/** `npm run release -- --version V --out <temp dir> --helm <the lab's helm>`; throws if it fails. */
export async function makeRelease(version: string, helmBinDir: string): Promise<ReleaseFiles> {
  const out = await tempDir('release');
  const started = Date.now();
  const release = await execa(process.execPath, ['scripts/release.ts', '--version', version, '--out', out.dir, '--helm', path.join(helmBinDir, 'helm')], {
    cwd: PACKAGE_ROOT,
    reject: false,
    stderr: 'inherit',
    timeout: 40 * 60_000,
  });
  const seconds = (Date.now() - started) / 1000;
  if (release.exitCode !== 0) {
    await out.remove();
    throw new Error(`npm run release exited ${release.exitCode}; its output is above`);
  }
  return {
    version,
    dir: out.dir,
    listed: release.stdout.trim().split('\n'),
    seconds,
    chartArchive: path.join(out.dir, 'chart', `virtgate-${version}.tgz`),
    imageArchive: (role) => path.join(out.dir, `virtgate-${role}-${version}.oci.tar`),
    canaryDiskArchive: path.join(out.dir, `canary-disk-${version}.oci.tar`),
    remove: out.remove,
  };
}

/** `helm push` of the release's chart to `oci://<registry>/charts` (plain HTTP); returns the chart's oci:// URL. */
export async function pushChart(helmBinDir: string, registry: LocalRegistry, release: ReleaseFiles): Promise<string> {
  await helmOk(helmBinDir, ['push', release.chartArchive, `oci://${registry.host}/charts`, '--plain-http']);
  return `oci://${registry.host}/charts/virtgate`;
}

/** Where a release image lives in the registry, as the chart names it under `global.imageRegistry`. */
export const releaseRepository = (role: ReleaseRole): string => `virtgate/virtgate-${role}`;

/**
 * Loads a release image's OCI archive into the lab's buildah store, tags it `localName`, and
 * pushes it to the registry as `virtgate/virtgate-<role>:<version>`. Returns buildah's image id
 * (for `buildah rmi` afterwards).
 */
export async function pushImage(buildah: Buildah, registry: LocalRegistry, release: ReleaseFiles, role: ReleaseRole, localName: string): Promise<string> {
  return pushArchive(buildah, registry, release.imageArchive(role), `${releaseRepository(role)}:${release.version}`, localName);
}

/** Where the canary's containerDisk lives in the registry, as the chart names it (canary.diskImage.repository). */
export const CANARY_DISK_REPOSITORY = 'virtgate/canary-disk';

/** pushImage for the canary's containerDisk: pushed as `virtgate/canary-disk:<version>`. */
export async function pushCanaryDisk(buildah: Buildah, registry: LocalRegistry, release: ReleaseFiles, localName: string): Promise<string> {
  return pushArchive(buildah, registry, release.canaryDiskArchive, `${CANARY_DISK_REPOSITORY}:${release.version}`, localName);
}

async function pushArchive(buildah: Buildah, registry: LocalRegistry, archive: string, repositoryAndTag: string, localName: string): Promise<string> {
  const pulled = await buildah('pull', '--quiet', `oci-archive:${archive}`);
  await buildah('tag', pulled, localName);
  await buildah('push', '--quiet', '--tls-verify=false', localName, `docker://${registry.host}/${repositoryAndTag}`);
  return pulled;
}
