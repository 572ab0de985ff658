import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const BUILD_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build.sh');

/**
 * Finds the cached control-plane binaries without building them. Missing binaries make the
 * integration tests fail (never skip) with the command that builds them.
 */
export async function locateBinaries(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    const { stdout } = await run('bash', [BUILD_SCRIPT, '--check'], { encoding: 'utf8', env });
    const bin = stdout.trim().split('\n').pop();
    if (!bin) throw new Error('build.sh --check printed no bin directory');
    return bin;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(
      `The real control plane is not built, so the integration tests cannot run.\n${stderr.trim()}\n` +
        'Run: bash test/lab/controlplane/build.sh   (or bash .ci/run, which builds it and then runs every test)',
    );
  }
}

/** The cosign build.sh makes beside the control plane (`cosign-<version>`), or an error saying how to build it. */
export async function locateCosign(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const bin = await locateBinaries(env);
  const built = (await readdir(bin)).find((name) => name.startsWith('cosign-'));
  if (!built) throw new Error(`no cosign-<version> in ${bin}: run bash test/lab/controlplane/build.sh`);
  return path.join(bin, built);
}
