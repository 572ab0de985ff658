import { execFile } from 'node:child_process';
import { access, constants, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The README's quick start runs the installed bin (`npx virtgate check`), not cli/main.ts.
const root = path.resolve(import.meta.dirname, '..');
const BUILT_FOLDERS = ['cli', 'core', 'agent', 'aggregator', 'prune', 'explain', 'canary'];

/** The newest modification time of the TypeScript sources the build compiles. */
async function newestSource(): Promise<{ file: string; mtimeMs: number }> {
  let newest = { file: '', mtimeMs: 0 };
  for (const folder of BUILT_FOLDERS) {
    for (const entry of await readdir(path.join(root, folder), { recursive: true })) {
      if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) continue;
      const file = path.join(folder, entry);
      const { mtimeMs } = await stat(path.join(root, file));
      if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
    }
  }
  return newest;
}

describe('the virtgate bin in a built checkout', () => {
  it('is executable, built from the current sources, and answers through npx, as the quick start runs it', async () => {
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string; bin: { virtgate: string } };
    const bin = path.join(root, pkg.bin.virtgate);
    await access(bin).catch(() => {
      throw new Error(`${pkg.bin.virtgate} is missing: run \`npm run build\` (npm test does it first) before the tests`);
    });
    // npm test builds before vitest runs; a bare `vitest run` after an edit would test stale code.
    const built = (await stat(bin)).mtimeMs;
    const source = await newestSource();
    expect(built, `${pkg.bin.virtgate} is older than ${source.file}: run \`npm run build\` (npm test does it first)`).toBeGreaterThanOrEqual(source.mtimeMs);
    await expect(access(bin, constants.X_OK), `${pkg.bin.virtgate} must be executable (npm run build sets it)`).resolves.toBeUndefined();
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'virtgate', '--version'], { cwd: root });
    expect(stdout.trim()).toBe(pkg.version);
  });
});

describe('the virtgate bin on an older Node.js', () => {
  it('says in one line that it needs Node.js 24, before any library loads, and exits 2', async () => {
    // The real Node 20 fails inside a library while loading ("TEXT_ENCODINGS.union is not a
    // function"); here Node 24 reports itself as 20, which reaches the same first line of the bin.
    const posing = 'data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"20.20.2"}})';
    const outcome = await promisify(execFile)(process.execPath, ['--import', posing, path.join(root, 'dist/cli/main.js'), 'check', '--json'], { cwd: root }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(/^virtgate: needs Node\.js 24 or newer; this is Node\.js 20\.20\.2 \(.+\)\. Install Node\.js 24 .*\n$/);
    expect(outcome.stderr.split('\n')).toHaveLength(2);
  });
});

describe('virtgate check from the bundle (dist/bundle/check.js, what the built bin loads for check)', () => {
  it('reports exactly what the sources report on fixture hosts, table and JSON, with the same exit code', async () => {
    await access(path.join(root, 'dist/bundle/check.js')).catch(() => {
      throw new Error('dist/bundle/check.js is missing: run `npm run build` (npm test does it first) before the tests');
    });
    const { buildHost } = await import('../test/lab/hosts/build-host.ts');
    const { tempDir } = await import('../test/lab/hosts/paths.ts');
    const { dir, remove } = await tempDir('bin-bundle');
    try {
      for (const profile of ['intel-metal', 'no-vmx', 'kvm-enodev'] as const) {
        const host = await buildHost(path.join(dir, profile), profile);
        for (const format of [['--json'], []]) {
          const args = ['check', '--no-vhv', ...format, ...host.cliArgs];
          const run = (main: string) => promisify(execFile)(process.execPath, [path.join(root, main), ...args], { cwd: root }).then(
            ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
            (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
          );
          const [sources, bundle] = await Promise.all([run('cli/main.ts'), run('dist/cli/main.js')]);
          expect(bundle, `${profile} ${format.join(' ')}`).toEqual(sources);
          expect(sources.stdout.length).toBeGreaterThan(0);
        }
      }
    } finally {
      await remove();
    }
  });
});

describe('virtgate check --node from the built bin', () => {
  it('reaches the same runner as the sources and reports its errors the same way (the cluster client is not in the bundle)', async () => {
    const bundle = await readFile(path.join(root, 'dist/bundle/check.js'), 'utf8').catch(() => {
      throw new Error('dist/bundle/check.js is missing: run `npm run build` (npm test does it first) before the tests');
    });
    expect(bundle).not.toMatch(/node_modules\/@kubernetes\/client-node\//);
    const args = ['check', '--node', 'node-a', '--kubeconfig', path.join(root, 'no-such-kubeconfig'), '--no-vhv'];
    const run = (main: string) => promisify(execFile)(process.execPath, [path.join(root, main), ...args], { cwd: root }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
    const [sources, built] = await Promise.all([run('cli/main.ts'), run('dist/cli/main.js')]);
    expect(sources.stderr).toMatch(/^virtgate: cannot load the kubeconfig: ENOENT/);
    expect(built).toEqual(sources);
  });
});
