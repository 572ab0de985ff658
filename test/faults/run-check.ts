/**
 * `virtgate check --json` as a real process, with its peak memory (GNU time's maximum resident
 * set) and, when asked, without root's file-permission capabilities (so that a mode-000 file
 * really gives EACCES, see test/lab/hosts/privileges.ts).
 */
import { execa } from 'execa';
import { CLI_MAIN, REPO_ROOT } from '../lab/hosts/paths.ts';
import { childEnv } from './child-env.ts';

export interface CheckRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the process, in MiB. */
  maxRssMiB: number;
}

const NO_DAC = '-dac_override,-dac_read_search';
const RSS_MARK = 'virtgate-fault-maxrss-kb=';

export async function runCheck(args: string[], options: { withoutDacCaps?: boolean; timeoutMs?: number } = {}): Promise<CheckRun> {
  const timed = ['/usr/bin/time', '-f', `${RSS_MARK}%M`, process.execPath, CLI_MAIN, 'check', ...args];
  const command = options.withoutDacCaps ? ['setpriv', '--bounding-set', NO_DAC, '--inh-caps', NO_DAC, '--', ...timed] : timed;
  const result = await execa(command[0] as string, command.slice(1), {
    cwd: REPO_ROOT,
    reject: false,
    timeout: options.timeoutMs ?? 60_000,
    env: { ...childEnv(), NO_COLOR: '1' },
    extendEnv: true,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.timedOut) throw new Error(`virtgate check ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60_000} ms`);
  const lines = result.stderr.split('\n');
  const mark = lines.find((line) => line.startsWith(RSS_MARK));
  return {
    exitCode: result.exitCode ?? -1,
    stdout: result.stdout,
    stderr: lines.filter((line) => !line.startsWith(RSS_MARK) && !line.startsWith('Command exited with non-zero status')).join('\n').trim(),
    maxRssMiB: mark ? Number(mark.slice(RSS_MARK.length)) / 1024 : Number.NaN,
  };
}
