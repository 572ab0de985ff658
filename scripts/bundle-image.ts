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
 * koffi stays external: it loads its native binary by a path relative to its own files, so the
 * agent image carries node_modules/koffi and its one linux-x64 `.node` file beside this bundle.
 */
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'rolldown';
import { PACKAGE_ROOT } from '../core/package-info.ts';

export const IMAGE_BUNDLE_DIR = path.join(PACKAGE_ROOT, 'dist', 'image');
const CLI_DIR = path.join(IMAGE_BUNDLE_DIR, 'cli');

async function bundle(input: string, options: { entryFileNames: string; codeSplitting: boolean }): Promise<void> {
  await build({
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

await rm(IMAGE_BUNDLE_DIR, { recursive: true, force: true });
await bundle('cli/main.ts', { entryFileNames: 'main.js', codeSplitting: true });
await bundle('core/kvm/guest-child.ts', { entryFileNames: 'guest-child.js', codeSplitting: false });
await cp(path.join(PACKAGE_ROOT, 'dist', 'aggregator', 'page'), path.join(IMAGE_BUNDLE_DIR, 'aggregator', 'page'), { recursive: true });
