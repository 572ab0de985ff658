/**
 * `virtgate check --help | head -1`: the reader leaves before virtgate writes, and the write
 * fails with EPIPE. The CLI must stop quietly with 0, as standard tools do, for the help, the
 * JSON and the table, from the sources and from the built bin (the bundle users run).
 */
import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, type BuiltHost } from '../test/lab/hosts/build-host.ts';
import { CLI_MAIN, REPO_ROOT, tempDir } from '../test/lab/hosts/paths.ts';

const BUILT_BIN = path.join(REPO_ROOT, 'dist/cli/main.js');

let host: BuiltHost | undefined;
let remove = async () => {};

beforeAll(async () => {
  await access(BUILT_BIN).catch(() => {
    throw new Error('dist/cli/main.js is missing: run `npm run build` (npm test does it first) before the tests');
  });
  const made = await tempDir('closed-pipe');
  remove = made.remove;
  host = await buildHost(path.join(made.dir, 'host'), 'intel-metal');
}, 60_000);
afterAll(() => remove());

/**
 * Runs the CLI with its stdout on a pipe whose reading end is closed at once, long before Node.js
 * has started and can write: every write meets a closed pipe.
 */
function runWithReaderGone(main: string, args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

const MAINS = [
  ['the sources', CLI_MAIN],
  ['the built bin', BUILT_BIN],
] as const;

describe.each(MAINS)('virtgate check from %s, its reader gone', (_name, main) => {
  const hostArgs = () => {
    if (!host) throw new Error('the fixture host was not built');
    return host.cliArgs;
  };
  it.each([
    ['--help', () => ['check', '--help']],
    ['--json', () => ['check', '--no-vhv', '--json', ...hostArgs()]],
    ['the table', () => ['check', '--no-vhv', ...hostArgs()]],
  ])('%s: exits 0 without a word on stderr', async (_what, args) => {
    const outcome = await runWithReaderGone(main, args());
    expect(outcome).toEqual({ code: 0, signal: null, stderr: '' });
  });
});
