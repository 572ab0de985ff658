/**
 * The release images: the agent and aggregator images scripts/images.sh builds from the
 * Dockerfiles (the same ones the real-node tests run), each with one small layer on top that
 * stamps the release's version into /app/package.json and adds the image's
 * SBOM, labelled with the release's OCI annotations, and saved as an OCI archive
 * `virtgate-<role>-X.Y.Z.oci.tar` with its SBOM beside it. Then the VM canary's containerDisk
 * (Dockerfile.canary-disk) as `canary-disk-X.Y.Z.oci.tar`: the same labels, but nothing added
 * inside (KubeVirt wants the disk alone in the image), its SBOM only beside it.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { debianPackages, npmPackages, spdxDocument, type SbomPackage } from './sbom.ts';
import { jsonText, stampManifest } from './version-stamp.ts';

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

/** The canary's containerDisk: the chart's canary.diskImage.repository is <registry>/virtgate/canary-disk. */
export const CANARY_DISK_IMAGE = 'canary-disk';

export interface ReleasedImage {
  role: Role | typeof CANARY_DISK_IMAGE;
  /** The name the archive carries, e.g. ghcr.io/virtgate/virtgate-agent:1.2.3. */
  reference: string;
  archive: string;
  sbom: string;
  packages: { deb: number; npm: number };
}

interface LabImages {
  /** Each image's docker-archive: the store's copy may be gone (a full store is emptied, another checkout untags it). */
  archives: Record<Role | typeof CANARY_DISK_IMAGE, string>;
  /** buildah's global flags for the store the images are in. */
  storage: string[];
}

async function buildLabImages(repo: string): Promise<LabImages> {
  const result = await execa('bash', [path.join(repo, 'scripts/images.sh')], { stderr: 'inherit', reject: false, timeout: 40 * 60_000 });
  if (result.exitCode !== 0) throw new Error(`scripts/images.sh failed (exit ${result.exitCode}); its output is above`);
  const archives: Partial<LabImages['archives']> = {};
  let storage: string[] = [];
  for (const line of result.stdout.trim().split('\n')) {
    const [key, ...rest] = line.split(' ');
    if (key === 'storage') storage = rest;
    else if ((key === 'agent' || key === 'aggregator' || key === CANARY_DISK_IMAGE) && rest[1]) archives[key] = rest[1];
  }
  if (!archives.agent || !archives.aggregator || !archives[CANARY_DISK_IMAGE] || storage.length === 0) {
    throw new Error(`scripts/images.sh did not name the three images and its store:\n${result.stdout}`);
  }
  return { archives: { agent: archives.agent, aggregator: archives.aggregator, [CANARY_DISK_IMAGE]: archives[CANARY_DISK_IMAGE] }, storage };
}

/** The npm packages of a node_modules folder copied without npm (no install record): their own package.json files. */
async function packagesInstalledUnder(nodeModules: string): Promise<SbomPackage[]> {
  const found: SbomPackage[] = [];
  for (const entry of await readdir(nodeModules, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const names = entry.name.startsWith('@') ? (await readdir(path.join(nodeModules, entry.name))).map((name) => `${entry.name}/${name}`) : [entry.name];
    for (const name of names) {
      const manifest = JSON.parse(await readFile(path.join(nodeModules, name, 'package.json'), 'utf8')) as { version: string; license?: string };
      found.push({ ecosystem: 'npm', name, version: manifest.version, ...(manifest.license ? { license: manifest.license } : {}) });
    }
  }
  return found;
}

/** The OCI labels every release image carries. */
function releaseLabels(meta: ReleaseMeta): Record<string, string> {
  return {
    'org.opencontainers.image.version': meta.version,
    'org.opencontainers.image.revision': meta.revision,
    'org.opencontainers.image.source': meta.source,
    'org.opencontainers.image.licenses': meta.license,
    'org.opencontainers.image.created': meta.created.toISOString(),
  };
}

const labelFlags = (labels: Record<string, string>): string[] => Object.entries(labels).flatMap(([key, value]) => ['--label', `${key}=${value}`]);

export async function releaseImages(repo: string, meta: ReleaseMeta, outDir: string): Promise<ReleasedImage[]> {
  const lab = await buildLabImages(repo);
  const buildah = async (...args: string[]): Promise<string> => (await execa('buildah', [...lab.storage, ...args])).stdout.trim();
  const released: ReleasedImage[] = [];
  for (const role of ROLES) {
    const image = `virtgate-${role}`;
    const reference = `${meta.repositoryPrefix}/${image}:${meta.version}`;
    const archive = path.join(outDir, `${image}-${meta.version}.oci.tar`);
    const sbomFile = path.join(outDir, `${image}-${meta.version}.spdx.json`);
    const container = await buildah('from', '--quiet', `docker-archive:${lab.archives[role]}`);
    let packages: ReleasedImage['packages'];
    try {
      const root = await buildah('mount', container);
      const manifest = path.join(root, 'app', 'package.json');
      await writeFile(manifest, jsonText(stampManifest(await readFile(manifest, 'utf8'), meta.version)));
      const debs = debianPackages(await readFile(path.join(root, 'var/lib/dpkg/status'), 'utf8'));
      // npm: the packages bundled into the program (scripts/bundle-image.ts lists them) and those
      // installed beside it (the agent's koffi).
      const npms = [...npmPackages(await readFile(path.join(root, 'app/dist/bundled-packages.json'), 'utf8')), ...(await packagesInstalledUnder(path.join(root, 'app/node_modules')))];
      packages = { deb: debs.length, npm: npms.length };
      const sbom = jsonText(spdxDocument({ image, version: meta.version, source: meta.source, created: meta.created }, [...debs, ...npms]));
      await writeFile(sbomFile, sbom);
      await mkdir(path.join(root, path.dirname(SBOM_IN_IMAGE)), { recursive: true, mode: 0o755 });
      await writeFile(path.join(root, SBOM_IN_IMAGE), sbom, { mode: 0o644 });
      await buildah('umount', container);
      const flags = labelFlags({ ...releaseLabels(meta), 'io.virtgate.sbom': SBOM_IN_IMAGE });
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
  released.push(await releaseCanaryDisk(lab, meta, outDir));
  return released;
}

/**
 * The canary's containerDisk: the built image relabelled, squashed back into its one layer (a
 * commit would otherwise add an empty one), times set to the commit's date. It holds no package,
 * so its SBOM (beside the archive only) lists none.
 */
async function releaseCanaryDisk(lab: LabImages, meta: ReleaseMeta, outDir: string): Promise<ReleasedImage> {
  const buildah = async (...args: string[]): Promise<string> => (await execa('buildah', [...lab.storage, ...args])).stdout.trim();
  const reference = `${meta.repositoryPrefix}/${CANARY_DISK_IMAGE}:${meta.version}`;
  const archive = path.join(outDir, `${CANARY_DISK_IMAGE}-${meta.version}.oci.tar`);
  const sbomFile = path.join(outDir, `${CANARY_DISK_IMAGE}-${meta.version}.spdx.json`);
  await writeFile(sbomFile, jsonText(spdxDocument({ image: CANARY_DISK_IMAGE, version: meta.version, source: meta.source, created: meta.created }, [])));
  const container = await buildah('from', '--quiet', `docker-archive:${lab.archives[CANARY_DISK_IMAGE]}`);
  try {
    await buildah('config', ...labelFlags(releaseLabels(meta)), container);
    const seconds = String(Math.floor(meta.created.getTime() / 1000));
    await buildah('commit', '--quiet', '--rm', '--squash', '--identity-label=false', '--timestamp', seconds, container, reference);
  } catch (error) {
    await execa('buildah', [...lab.storage, 'rm', container], { reject: false });
    throw error;
  }
  await buildah('push', '--quiet', reference, `oci-archive:${archive}:${reference}`);
  await buildah('rmi', reference);
  return { role: CANARY_DISK_IMAGE, reference, archive, sbom: sbomFile, packages: { deb: 0, npm: 0 } };
}
