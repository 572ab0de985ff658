/**
 * The built bin runs `check` from the bundle with its own V8 code cache (cli/run-bundle.ts): made
 * by the first run, taken by the next, replaced when V8 rejects it, never read from a directory
 * others can write to, and the report always the same as the sources'.
 */
import { execFile } from 'node:child_process';
import { access, chmod, copyFile, mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, type BuiltHost } from '../test/lab/hosts/build-host.ts';
import { CLI_MAIN, REPO_ROOT, tempDir } from '../test/lab/hosts/paths.ts';

const BUILT_BIN = path.join(REPO_ROOT, 'dist/cli/main.js');

let base = '';
let remove = async () => {};
let host: BuiltHost | undefined;

beforeAll(async () => {
  await access(path.join(REPO_ROOT, 'dist/bundle/check.js')).catch(() => {
    throw new Error('dist/bundle/check.js is missing: run `npm run build` (npm test does it first) before the tests');
  });
  ({ dir: base, remove } = await tempDir('run-bundle'));
  host = await buildHost(path.join(base, 'host'), 'intel-metal');
}, 60_000);
afterAll(() => remove());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * An installed copy of the bin and its bundle under `dir` (what npm puts in a package's folder
 * for `check`), optionally with the bundle's text changed.
 */
async function install(dir: string, edit: (bundle: string) => string = (bundle) => bundle): Promise<string> {
  await mkdir(path.join(dir, 'dist/cli'), { recursive: true });
  await mkdir(path.join(dir, 'dist/bundle'), { recursive: true });
  await copyFile(path.join(REPO_ROOT, 'package.json'), path.join(dir, 'package.json'));
  for (const file of ['dist/cli/main.js', 'dist/cli/run-bundle.js']) await copyFile(path.join(REPO_ROOT, file), path.join(dir, file));
  await writeFile(path.join(dir, 'dist/bundle/check.js'), edit(await readFile(path.join(REPO_ROOT, 'dist/bundle/check.js'), 'utf8')));
  return path.join(dir, 'dist/cli/main.js');
}

/** The bundle with its report's apiVersion changed, the file's length kept: V8 alone would take the other build's cache. */
const SAME_LENGTH_EDIT = (bundle: string) => {
  if (!bundle.includes('"v1alpha1"')) throw new Error('the bundle no longer holds "v1alpha1": pick another same-length edit');
  return bundle.replaceAll('"v1alpha1"', '"v1alpha9"');
};

/** `check --no-vhv --json` on the fixture host, with the system's temporary directory at `tmp`. */
function check(main: string, tmp: string): Promise<Run> {
  if (!host) throw new Error('the fixture host was not built');
  return promisify(execFile)(process.execPath, [main, 'check', '--no-vhv', '--json', ...host.cliArgs], { cwd: REPO_ROOT, env: { ...process.env, TMPDIR: tmp } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Run) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

const cacheDir = (tmp: string) => path.join(tmp, `virtgate-code-cache-${process.getuid?.() ?? 'none'}`);

async function cacheFiles(tmp: string): Promise<string[]> {
  return (await readdir(cacheDir(tmp))).map((name) => path.join(cacheDir(tmp), name));
}

describe('virtgate check from the bundle, with its code cache', () => {
  it('makes the cache on the first run (the user\'s own, 0700 and 0600), takes it on the next, and reports what the sources report', async () => {
    const tmp = await mkdtemp(path.join(base, 'tmp-'));
    const sources = await check(CLI_MAIN, tmp);
    expect(sources.stdout.length).toBeGreaterThan(0);
    const first = await check(BUILT_BIN, tmp);
    expect(first).toEqual(sources);
    const [file, ...others] = await cacheFiles(tmp);
    expect(others).toEqual([]);
    if (!file) throw new Error('the first run made no cache file');
    const { version } = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(path.basename(file)).toBe(`check-${version}.bin`);
    expect((await stat(cacheDir(tmp))).mode & 0o777).toBe(0o700);
    const made = await stat(file);
    expect(made.mode & 0o777).toBe(0o600);
    expect(made.size).toBeGreaterThan(100_000);
    const second = await check(BUILT_BIN, tmp);
    expect(second).toEqual(sources);
    // Accepted, so not written again.
    expect((await stat(file)).mtimeMs).toBe(made.mtimeMs);
  });

  it('replaces a cache V8 rejects, and the report stays the same', async () => {
    const tmp = await mkdtemp(path.join(base, 'tmp-'));
    const sources = await check(CLI_MAIN, tmp);
    await check(BUILT_BIN, tmp);
    const [file] = await cacheFiles(tmp);
    if (!file) throw new Error('the first run made no cache file');
    await writeFile(file, 'not a code cache');
    expect(await check(BUILT_BIN, tmp)).toEqual(sources);
    expect((await readFile(file)).length).toBeGreaterThan(100_000);
  });

  it('neither reads nor writes a cache directory others can write to', async () => {
    const tmp = await mkdtemp(path.join(base, 'tmp-'));
    const sources = await check(CLI_MAIN, tmp);
    await check(BUILT_BIN, tmp);
    const [file] = await cacheFiles(tmp);
    if (!file) throw new Error('the first run made no cache file');
    await chmod(cacheDir(tmp), 0o777);
    await writeFile(file, 'planted');
    expect(await check(BUILT_BIN, tmp)).toEqual(sources);
    // Read, it would have been rejected and replaced; it is untouched.
    expect(await readFile(file, 'utf8')).toBe('planted');
  });

  it('keeps one file per virtgate version: installations of one version at other paths share it, and none runs code cached from another build', async () => {
    const tmp = await mkdtemp(path.join(base, 'tmp-'));
    const sources = await check(CLI_MAIN, tmp);
    // A file of the earlier layout (one per path and build) is removed when the cache is written.
    await mkdir(cacheDir(tmp), { recursive: true, mode: 0o700 });
    const perPath = path.join(cacheDir(tmp), 'check-10iuokf-8byl-dnd6yuv0u0xr-6xcym-v24.22.3-x64.bin');
    await writeFile(perPath, 'old layout', { mode: 0o600 });
    const first = await install(await mkdtemp(path.join(base, 'install-')));
    const second = await install(await mkdtemp(path.join(base, 'install-')));
    expect(await check(first, tmp)).toEqual(sources);
    expect(await check(second, tmp)).toEqual(sources);
    expect(await check(first, tmp)).toEqual(sources);
    const files = await cacheFiles(tmp);
    expect(files.map((file) => path.basename(file))).toHaveLength(1);
    expect(files).not.toContain(perPath);
    // Another build of the same version and length, at another path and at the same path
    // (rebuilt in place after the first run cached it): each reports what its own code says.
    const edited = await install(await mkdtemp(path.join(base, 'install-')), SAME_LENGTH_EDIT);
    const expected = { ...sources, stdout: sources.stdout.replace('"virtgate.io/v1alpha1"', '"virtgate.io/v1alpha9"') };
    expect(expected.stdout).not.toBe(sources.stdout);
    expect(await check(edited, tmp)).toEqual(expected);
    expect(await check(first, tmp)).toEqual(sources);
    const firstBundle = path.join(path.dirname(first), '../bundle/check.js');
    await writeFile(firstBundle, SAME_LENGTH_EDIT(await readFile(firstBundle, 'utf8')));
    expect(await check(first, tmp)).toEqual(expected);
    expect(await cacheFiles(tmp)).toHaveLength(1);
  });
});
