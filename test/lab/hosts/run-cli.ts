/** Runs the real CLI (`node cli/main.ts ...`) as a child process, the way a user does. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CLI_MAIN, REPO_ROOT } from './paths.ts';

const run = promisify(execFile);

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Colour switches are removed from the environment so that only the TTY decides. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliOutcome> {
  const base = { ...process.env };
  delete base.FORCE_COLOR;
  delete base.NO_COLOR;
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI_MAIN, ...args], {
      cwd: REPO_ROOT,
      env: { ...base, ...env },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'number') {
      const failed = error as { code: number; stdout?: string; stderr?: string };
      return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
    throw error;
  }
}
