import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { BuiltImage } from '../node/images.ts';

/** The images KubeVirt's operator derives from the CR's imageRegistry and imageTag, built by images.sh. */
export const KUBEVIRT_ROLES = ['virt-operator', 'virt-api', 'virt-controller', 'virt-handler', 'virt-launcher'] as const;
export type KubevirtRole = (typeof KUBEVIRT_ROLES)[number];

/**
 * One image per role, e.g. `virt-launcher` → localhost/kubevirt/virt-launcher:v1.9.0 and its
 * docker-archive (import it with `ctr images import`; it is never pulled). `virt-exportproxy` is
 * there when build.sh built that command. Every value is an image, so
 * `Object.values(images).map((i) => i.archive)` lists all the archives.
 */
export type KubevirtImages = Record<KubevirtRole, BuiltImage> & { 'virt-exportproxy'?: BuiltImage };

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'images.sh');

/** Builds (or finds, by content hash) KubeVirt's images with images.sh and reads where they are. */
export async function buildKubevirtImages(): Promise<KubevirtImages> {
  const result = await execa('bash', [SCRIPT], { stderr: 'inherit', timeout: 30 * 60_000, reject: false });
  if (result.exitCode !== 0) {
    throw new Error(
      `test/lab/kubevirt/images.sh failed (exit ${result.exitCode}${result.timedOut ? ', timed out after 30 min' : ''}); its output is above. ` +
        'It needs root, KubeVirt built by test/lab/kubevirt/build.sh, Debian\'s buildah, mmdebstrap and libcap2-bin, and the Debian mirror (trixie): see test/lab/kubevirt/README.md',
    );
  }
  const images: Partial<Record<string, BuiltImage>> = {};
  for (const line of result.stdout.trim().split('\n')) {
    const [role, ref, archive] = line.split(' ');
    if (role && ref && archive && ((KUBEVIRT_ROLES as readonly string[]).includes(role) || role === 'virt-exportproxy')) {
      const colon = ref.lastIndexOf(':');
      images[role] = { ref, repository: ref.slice(0, colon), tag: ref.slice(colon + 1), archive };
    }
  }
  const missing = KUBEVIRT_ROLES.filter((role) => !images[role]);
  if (missing.length > 0) throw new Error(`images.sh printed no image for ${missing.join(', ')}:\n${result.stdout}`);
  return images as KubevirtImages;
}
