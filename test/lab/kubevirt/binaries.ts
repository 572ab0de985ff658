import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const BUILD_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build.sh');

export const KUBEVIRT_VERSION = 'v1.9.0';

/** Where build.sh put KubeVirt's commands; fails with the command to run when they are missing. */
export async function locateKubevirt(): Promise<{ binDir: string; manifestsDir: string }> {
  const result = await execa('bash', [BUILD_SCRIPT, '--check'], { reject: false, timeout: 60_000 });
  if (result.exitCode !== 0) {
    throw new Error(`KubeVirt ${KUBEVIRT_VERSION} is not built: ${result.stderr.trim()}\nRun: bash test/lab/kubevirt/build.sh (CI's .ci/run does).`);
  }
  const binDir = result.stdout.trim().split('\n').at(-1) ?? '';
  return { binDir, manifestsDir: path.join(binDir, '..', 'manifests') };
}
