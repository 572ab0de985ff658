/**
 * The helm binary the release packages the chart with: --helm, else `helm` on PATH, else the one
 * built with the test control plane (test/lab/controlplane/build.sh).
 */
import path from 'node:path';
import { execa } from 'execa';
import { locateBinaries } from '../../test/lab/controlplane/binaries.ts';

export async function findHelm(explicit: string | undefined): Promise<string> {
  if (explicit) return explicit;
  const onPath = await execa('helm', ['version', '--short'], { reject: false });
  if (onPath.exitCode === 0) return 'helm';
  try {
    return path.join(await locateBinaries(), 'helm');
  } catch {
    throw new Error('no helm: install Helm 3.8+ (or 4), pass --helm PATH, or build the test control plane (bash test/lab/controlplane/build.sh)');
  }
}
