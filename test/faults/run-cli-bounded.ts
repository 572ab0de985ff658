/** The real CLI as a process, bounded in time: a command that should stop at once must not hang a test run. */
import { execa } from 'execa';
import { CLI_MAIN, REPO_ROOT } from '../lab/hosts/paths.ts';
import { childEnv } from './child-env.ts';

export interface CliRun {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const NO_DAC = '-dac_override,-dac_read_search';

/** `withoutDacCaps` runs it without root's file-permission capabilities, so a mode-000 file really is unreadable. */
export async function runCliBounded(args: string[], env: Record<string, string | undefined> = {}, options: { withoutDacCaps?: boolean; timeoutMs?: number } = {}): Promise<CliRun> {
  const base: Record<string, string | undefined> = { ...process.env, ...childEnv(), NO_COLOR: '1', FORCE_COLOR: undefined };
  const command = [process.execPath, CLI_MAIN, ...args];
  const full = options.withoutDacCaps ? ['setpriv', '--bounding-set', NO_DAC, '--inh-caps', NO_DAC, '--', ...command] : command;
  const result = await execa(full[0] as string, full.slice(1), {
    cwd: REPO_ROOT,
    env: { ...base, ...env },
    extendEnv: false,
    reject: false,
    timeout: options.timeoutMs ?? 45_000,
    stdin: 'ignore',
  });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, timedOut: result.timedOut ?? false };
}
