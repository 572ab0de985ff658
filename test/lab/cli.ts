/**
 * The lab's one way to run the real CLI (`node cli/main.ts ...`) as a child process, the way a
 * user does: bounded in time (a command that should stop at once must not hang a test run), its
 * exit code always returned, never thrown.
 */
import { execa } from 'execa';
import { CLI_MAIN, REPO_ROOT } from './hosts/paths.ts';

export interface CliRun {
  /** The exit code; -1 when it was killed (only with `allowTimeout`). */
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Peak resident memory in MiB (GNU time's maximum resident set), when `measureRss` asked for it. */
  maxRssMiB?: number;
}

export interface CliOptions {
  /** Default 120 s. */
  timeoutMs?: number;
  /** Without root's file-permission capabilities, so that a mode-000 file really gives EACCES (see hosts/privileges.ts). */
  withoutDacCaps?: boolean;
  /** Run under /usr/bin/time and report the peak memory. */
  measureRss?: boolean;
  /** Report a run that outlived `timeoutMs` as `timedOut` instead of throwing (a test of "stops at once" judges it). */
  allowTimeout?: boolean;
}

const NO_DAC = '-dac_override,-dac_read_search';
const RSS_MARK = 'virtgate-lab-maxrss-kb=';

/** The colour switches are removed from the environment so that only the TTY (or `env`) decides. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}, options: CliOptions = {}): Promise<CliRun> {
  let command = [process.execPath, CLI_MAIN, ...args];
  if (options.measureRss) command = ['/usr/bin/time', '-f', `${RSS_MARK}%M`, ...command];
  if (options.withoutDacCaps) command = ['setpriv', '--bounding-set', NO_DAC, '--inh-caps', NO_DAC, '--', ...command];
  const result = await execa(command[0] as string, command.slice(1), {
    cwd: REPO_ROOT,
    env: { ...process.env, FORCE_COLOR: undefined, NO_COLOR: undefined, ...env },
    extendEnv: false,
    reject: false,
    timeout: options.timeoutMs ?? 120_000,
    stdin: 'ignore',
    // The output as a user's terminal gets it, final newline included.
    stripFinalNewline: false,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.timedOut && !options.allowTimeout) throw new Error(`virtgate ${args.join(' ')} did not finish in ${options.timeoutMs ?? 120_000} ms`);
  const lines = result.stderr.split('\n');
  const mark = lines.find((line) => line.startsWith(RSS_MARK));
  const stderr = options.measureRss
    ? lines.filter((line) => !line.startsWith(RSS_MARK) && !line.startsWith('Command exited with non-zero status')).join('\n').trim()
    : result.stderr;
  return {
    code: result.exitCode ?? -1,
    stdout: result.stdout,
    stderr,
    timedOut: result.timedOut ?? false,
    ...(options.measureRss ? { maxRssMiB: mark ? Number(mark.slice(RSS_MARK.length)) / 1024 : Number.NaN } : {}),
  };
}
