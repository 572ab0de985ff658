/**
 * The release images: the agent and aggregator images scripts/images.sh builds from the
 * Dockerfiles (the same ones the real-node tests run), each with one small layer on top that
 * stamps the release's version into /app/package.json and package-lock.json and adds the image's
 * SBOM, labelled with the release's OCI annotations, and saved as an OCI archive
 * `virtgate-<role>-X.Y.Z.oci.tar` with its SBOM beside it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { debianPackages, npmPackages, spdxDocument } from './sbom.ts';
import { jsonText, stampLock, stampManifest } from './version-stamp.ts';

export const ROLES = ['agent', 'aggregator'] as const;
export type Role = (typeof ROLES)[number];

/** Where the SBOM is inside each image; the label io.virtgate.sbom names it. */
export const SBOM_IN_IMAGE = '/usr/share/doc/virtgate/sbom.spdx.json';

export interface ReleaseMeta {
  version: string;
  revision: string;
  source: string;
  license: string;
  created: Date;
  /** Registry and path the images are named for, e.g. ghcr.io/virtgate. */
  repositoryPrefix: string;
}

export interface ReleasedImage {
  role: Role;
  /** The name the archive carries, e.g. ghcr.io/virtgate/virtgate-agent:1.2.3. */
  reference: string;
  archive: string;
  sbom: string;
  packages: { deb: number; npm: number };
}

interface LabImages {
  refs: Record<Role, string>;
  /** Each image's docker-archive, which scripts/images.sh keeps whether or not its store still holds the image. */
  archives: Record<Role, string>;
  /** buildah's global flags for the store the images are in. */
  storage: string[];
}

async function buildLabImages(repo: string): Promise<LabImages> {
  const result = await execa('bash', [path.join(repo, 'scripts/images.sh')], { stderr: 'inherit', reject: false, timeout: 40 * 60_000 });
  if (result.exitCode !== 0) throw new Error(`scripts/images.sh failed (exit ${result.exitCode}); its output is above`);
  const refs: Partial<Record<Role, string>> = {};
  const archives: Partial<Record<Role, string>> = {};
  let storage: string[] = [];
  for (const line of result.stdout.trim().split('\n')) {
    const [key, ...rest] = line.split(' ');
    if (key === 'storage') storage = rest;
    else if ((key === 'agent' || key === 'aggregator') && rest[0] && rest[1]) [refs[key], archives[key]] = [rest[0], rest[1]];
  }
  if (!refs.agent || !refs.aggregator || !archives.agent || !archives.aggregator || storage.length === 0) {
    throw new Error(`scripts/images.sh did not name both images and its store:\n${result.stdout}`);
  }
  return { refs: { agent: refs.agent, aggregator: refs.aggregator }, archives: { agent: archives.agent, aggregator: archives.aggregator }, storage };
}

export async function releaseImages(repo: string, meta: ReleaseMeta, outDir: string): Promise<ReleasedImage[]> {
  const lab = await buildLabImages(repo);
  const buildah = async (...args: string[]): Promise<string> => (await execa('buildah', [...lab.storage, ...args])).stdout.trim();
  const released: ReleasedImage[] = [];
  for (const role of ROLES) {
    const image = `virtgate-${role}`;
    const reference = `${meta.repositoryPrefix}/${image}:${meta.version}`;
    const archive = path.join(outDir, `${image}-${meta.version}.oci.tar`);
    const sbomFile = path.join(outDir, `${image}-${meta.version}.spdx.json`);
    // images.sh finds a cached archive without checking its store, which may have lost the image
    // (emptied past its size cap, or untagged by another checkout's run): load it back from the archive.
    const inStore = await execa('buildah', [...lab.storage, 'inspect', '--type', 'image', lab.refs[role]], { reject: false });
    if (inStore.exitCode !== 0) await buildah('pull', '--quiet', `docker-archive:${lab.archives[role]}`);
    const container = await buildah('from', '--pull=never', '--quiet', lab.refs[role]);
    let packages: ReleasedImage['packages'];
    try {
      const root = await buildah('mount', container);
      for (const [file, stamp] of [['package.json', stampManifest], ['package-lock.json', stampLock]] as const) {
        const inImage = path.join(root, 'app', file);
        await writeFile(inImage, jsonText(stamp(await readFile(inImage, 'utf8'), meta.version)));
      }
      const debs = debianPackages(await readFile(path.join(root, 'var/lib/dpkg/status'), 'utf8'));
      const npms = npmPackages(await readFile(path.join(root, 'app/node_modules/.package-lock.json'), 'utf8'));
      packages = { deb: debs.length, npm: npms.length };
      const sbom = jsonText(spdxDocument({ image, version: meta.version, source: meta.source, created: meta.created }, [...debs, ...npms]));
      await writeFile(sbomFile, sbom);
      await mkdir(path.join(root, path.dirname(SBOM_IN_IMAGE)), { recursive: true, mode: 0o755 });
      await writeFile(path.join(root, SBOM_IN_IMAGE), sbom, { mode: 0o644 });
      await buildah('umount', container);
      const labels = {
        'org.opencontainers.image.version': meta.version,
        'org.opencontainers.image.revision': meta.revision,
        'org.opencontainers.image.source': meta.source,
        'org.opencontainers.image.licenses': meta.license,
        'org.opencontainers.image.created': meta.created.toISOString(),
        'io.virtgate.sbom': SBOM_IN_IMAGE,
      };
      const flags = Object.entries(labels).flatMap(([key, value]) => ['--label', `${key}=${value}`]);
      await buildah('config', ...flags, '--env', `VIRTGATE_REVISION=${meta.revision}`, container);
      await buildah('commit', '--quiet', '--rm', container, reference);
    } catch (error) {
      await execa('buildah', [...lab.storage, 'rm', container], { reject: false });
      throw error;
    }
    await buildah('push', '--quiet', reference, `oci-archive:${archive}:${reference}`);
    await buildah('rmi', reference);
    released.push({ role, reference, archive, sbom: sbomFile, packages });
  }
  return released;
}
