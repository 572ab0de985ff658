/**
 * Runs Node as root *without* some capabilities, so permission errors can be produced for real:
 * root ignores file modes (CAP_DAC_OVERRIDE), so `chmod 000` alone stops nothing in these tests.
 * Uses util-linux `setpriv`, which drops the capabilities from the bounding and inheritable sets
 * before exec, so the new process never has them.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `caps` are setpriv names, e.g. ['dac_override', 'dac_read_search'] or ['mknod']. */
export async function runNodeWithout(caps: string[], args: string[], cwd?: string): Promise<Outcome> {
  const drop = caps.map((cap) => `-${cap}`).join(',');
  try {
    const { stdout, stderr } = await run('setpriv', ['--bounding-set', drop, '--inh-caps', drop, '--', process.execPath, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'number') {
      const failed = error as { code: number; stdout?: string; stderr?: string };
      return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
    const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
    if (code === 'ENOENT') throw new Error('setpriv is not installed: install util-linux (it ships setpriv); these tests need it to drop root capabilities');
    throw error;
  }
}

/** Runs an ES module snippet (which may import .ts files by absolute path) without `caps`. */
export function evalWithout(caps: string[], moduleSource: string): Promise<Outcome> {
  return runNodeWithout(caps, ['--input-type=module', '--eval', moduleSource]);
}
