/** buildah on the lab's image store (the one scripts/images.sh builds in), for tests that read images. */
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';

export type Buildah = (...args: string[]) => Promise<string>;

export async function labBuildah(): Promise<Buildah> {
  const check = await execa('bash', [path.join(PACKAGE_ROOT, 'scripts/images.sh'), '--check'], { reject: false });
  const storage = check.stdout.split('\n').find((line) => line.startsWith('storage '))?.split(' ').slice(1);
  if (check.exitCode !== 0 || !storage) throw new Error(`scripts/images.sh --check found no image store (exit ${check.exitCode}): ${check.stderr.trim()}`);
  return async (...args) => (await execa('buildah', [...storage, ...args])).stdout.trim();
}
