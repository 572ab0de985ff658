import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

export interface BuiltImage {
  /** The reference the image has in containerd, e.g. localhost/virtgate-agent:<hash>. */
  ref: string;
  repository: string;
  tag: string;
  /** Its docker-archive in the cache. */
  archive: string;
}

export interface BuiltImages {
  /** The stand-in `node:<version>-bookworm-slim` base: its archive is the rootfs it was made from (one layer). */
  base?: BuiltImage;
  pause: BuiltImage;
  /** Cluster DNS: CoreDNS from its Go module, from scratch. */
  coredns: BuiltImage;
  agent: BuiltImage;
  aggregator: BuiltImage;
  /** The VM canary's containerDisk (Dockerfile.canary-disk), imported so a VMI finds it without a registry. */
  canaryDisk: BuiltImage;
}

/** An image as a build script printed it: its reference and its archive. */
export function builtImage(ref: string, archive: string): BuiltImage {
  const colon = ref.lastIndexOf(':');
  return { ref, repository: ref.slice(0, colon), tag: ref.slice(colon + 1), archive };
}

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'images.sh');

/** Builds (or finds, by content hash) the images with images.sh and reads where they are. */
export async function buildImages(): Promise<BuiltImages> {
  const result = await execa('bash', [SCRIPT], { stderr: 'inherit', timeout: 30 * 60_000, reject: false });
  if (result.exitCode !== 0) {
    throw new Error(`test/lab/node/images.sh failed (exit ${result.exitCode}); its output is above. It needs Debian's buildah and mmdebstrap: see docs/development.md`);
  }
  const images: Partial<BuiltImages> = {};
  for (const line of result.stdout.trim().split('\n')) {
    const [printed, ref, archive] = line.split(' ');
    const role = printed === 'canary-disk' ? 'canaryDisk' : printed;
    if ((role === 'base' || role === 'pause' || role === 'coredns' || role === 'agent' || role === 'aggregator' || role === 'canaryDisk') && ref && archive) {
      images[role] = builtImage(ref, archive);
    }
  }
  if (!images.pause || !images.coredns || !images.agent || !images.aggregator || !images.canaryDisk) throw new Error(`images.sh printed no images:\n${result.stdout}`);
  return images as BuiltImages;
}
