/**
 * What `virtgate check` from the built bin holds and loads: the bundle carries only the libraries
 * `check` runs (no cluster client, logger, HTTP server or metrics registry), and the run loads
 * none of Node.js's stream, fs/promises, child-process or network modules on a host whose
 * /dev/kvm does not open: each is milliseconds of a start-up that must stay within 2× `node -e 0`
 * (docs/development.md, Start-up of `virtgate check`).
 */
import { execFile } from 'node:child_process';
import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, type BuiltHost } from '../test/lab/hosts/build-host.ts';
import { REPO_ROOT, tempDir } from '../test/lab/hosts/paths.ts';

const BUILT_BIN = path.join(REPO_ROOT, 'dist/cli/main.js');
const BUNDLE = path.join(REPO_ROOT, 'dist/bundle/check.js');

let base = '';
let remove = async () => {};
let host: BuiltHost | undefined;

beforeAll(async () => {
  await access(BUNDLE).catch(() => {
    throw new Error('dist/bundle/check.js is missing: run `npm run build` (npm test does it first) before the tests');
  });
  ({ dir: base, remove } = await tempDir('check-bundle-contents'));
  host = await buildHost(path.join(base, 'host'), 'kvm-enodev');
}, 60_000);
afterAll(() => remove());

/** The Node.js built-ins a process loaded (process.moduleLoadList, written at exit by a preloaded module). */
async function modulesLoaded(args: string[]): Promise<Set<string>> {
  const out = path.join(base, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const preload = path.join(base, 'record-modules.mjs');
  await writeFile(preload, `process.on('exit', () => process.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`);
  await promisify(execFile)(process.execPath, ['--import', preload, ...args], { cwd: REPO_ROOT }).catch((error: { code?: unknown }) => {
    // `check` exits 1 on a host that is not ready; anything else is a failure to run.
    if (error.code !== 1) throw error;
  });
  return new Set((await readFile(out, 'utf8')).split('\n'));
}

describe('virtgate check from the built bin', () => {
  it('bundles commander, zod, semver and ms, and no other library', async () => {
    const bundle = await readFile(BUNDLE, 'utf8');
    const packages = new Set([...bundle.matchAll(/^\/\/ .*node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((match) => match[1]));
    expect([...packages].sort()).toEqual(['commander', 'ms', 'semver', 'zod']);
  });

  it('holds no other subcommand and none of the cluster programs: each is loaded only when it runs', async () => {
    const bundle = await readFile(BUNDLE, 'utf8');
    const sources = [...bundle.matchAll(/^\/\/ ((?:cli|core|agent|aggregator|prune|canary)\/[\w/.-]+\.ts)$/gm)].map((match) => match[1] ?? '');
    expect(sources).toContain('cli/commands/check.ts');
    expect(sources.filter((source) => /^cli\/commands\/(?!check\.ts$|zod-one-shot\.ts$)/.test(source) || /^(agent|aggregator|prune|canary)\//.test(source))).toEqual([]);
  });

  it('loads no stream, fs/promises, child-process, terminal or network module where /dev/kvm does not open', async () => {
    if (!host) throw new Error('the fixture host was not built');
    const baseline = await modulesLoaded(['-e', '0']);
    const check = await modulesLoaded([BUILT_BIN, 'check', '--no-vhv', '--json', ...host.cliArgs]);
    expect(check.has('NativeModule vm'), 'the bin runs the bundle through vm.Script: a run that loads no vm did not run the bundle').toBe(true);
    const extra = [...check].filter((name) => !baseline.has(name));
    const heavy = extra.filter((name) => /^NativeModule (stream|internal\/streams\/|fs\/promises|internal\/fs\/promises|child_process|internal\/child_process|net|tty|readline|internal\/readline\/|worker_threads|zlib|crypto|perf_hooks)/.test(name));
    expect(heavy, `loaded beyond \`node -e 0\`: ${extra.join(', ')}`).toEqual([]);
  });
});
