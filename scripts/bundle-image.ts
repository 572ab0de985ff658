/**
 * The program the two images run, as bundled files instead of the tsc output and `node_modules`
 * (Dockerfile.agent, Dockerfile.aggregator run it after `npm run build`): dist/image/ is laid out
 * as /app/dist in the image, so the entry point stays /app/dist/cli/main.js (the chart's helm-test
 * hook names it).
 *
 * - cli/main.js: the whole `virtgate` command with every dependency inlined, split where the
 *   program already loads lazily (one chunk per subcommand, execa, systeminformation), so the
 *   agent never loads the aggregator's code and `@kubernetes/client-node` keeps only what is used;
 * - cli/guest-child.js: kvm.run's child, beside the chunk that starts it (core/kvm/run-guest.ts
 *   looks for it next to itself);
 * - aggregator/page: the page's files, copied from the build (aggregator/http/page.ts serves them
 *   from the package root's dist/aggregator/page).
 *
 * - bundled-packages.json: the npm packages whose code the bundle holds, in the shape of npm's own
 *   record of an install (node_modules/.package-lock.json), for the release's SBOM.
 *
 * koffi stays external: it loads its native binary by a path relative to its own files, so the
 * agent image carries node_modules/koffi and its one linux-x64 `.node` file beside this bundle.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type RolldownOutput } from 'rolldown';
import { PACKAGE_ROOT } from '../core/package-info.ts';

const IMAGE_BUNDLE_DIR = path.join(PACKAGE_ROOT, 'dist', 'image');
const CLI_DIR = path.join(IMAGE_BUNDLE_DIR, 'cli');

async function bundle(input: string, options: { entryFileNames: string; codeSplitting: boolean }): Promise<RolldownOutput> {
  return await build({
    input: path.join(PACKAGE_ROOT, input),
    platform: 'node',
    external: ['koffi'],
    logLevel: 'warn',
    output: {
      dir: CLI_DIR,
      format: 'esm',
      entryFileNames: options.entryFileNames,
      chunkFileNames: '[name]-[hash].js',
      codeSplitting: options.codeSplitting,
      minify: false,
      comments: { legal: true, annotation: false, jsdoc: false },
    },
  });
}

/**
 * The package directory of a bundled module, as npm's install record names it: the path from the
 * first node_modules/ to the innermost package (node_modules/a/node_modules/@s/b), or undefined
 * for the program's own modules.
 */
function packageKeyOf(moduleId: string): string | undefined {
  const match = /node_modules\/(?:(?:@[^/]+\/)?[^/]+\/node_modules\/)*(?:@[^/]+\/)?[^/]+/.exec(moduleId.split(path.sep).join('/'));
  return match?.[0];
}

async function bundledPackages(outputs: RolldownOutput[]): Promise<Record<string, { version: string; license?: string }>> {
  const packages: Record<string, { version: string; license?: string }> = {};
  for (const { output } of outputs) {
    for (const chunk of output) {
      if (chunk.type !== 'chunk') continue;
      for (const id of chunk.moduleIds) {
        const key = packageKeyOf(id);
        if (key === undefined || packages[key] || id.startsWith('\0')) continue;
        const root = id.slice(0, id.split(path.sep).join('/').indexOf(key) + key.length);
        const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string; license?: string };
        packages[key] = { version: manifest.version, ...(manifest.license ? { license: manifest.license } : {}) };
      }
    }
  }
  return Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b)));
}

await rm(IMAGE_BUNDLE_DIR, { recursive: true, force: true });
const outputs = [
  await bundle('cli/main.ts', { entryFileNames: 'main.js', codeSplitting: true }),
  await bundle('core/kvm/guest-child.ts', { entryFileNames: 'guest-child.js', codeSplitting: false }),
];
await writeFile(path.join(IMAGE_BUNDLE_DIR, 'bundled-packages.json'), `${JSON.stringify({ packages: await bundledPackages(outputs) }, null, 2)}\n`);
await cp(path.join(PACKAGE_ROOT, 'dist', 'aggregator', 'page'), path.join(IMAGE_BUNDLE_DIR, 'aggregator', 'page'), { recursive: true });
