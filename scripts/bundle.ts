/**
 * `npm run build`'s last step: `virtgate check` as one ESM file, dist/bundle/check.js, which the
 * bin (cli/main.ts) loads for `check` when it exists; the other commands keep running from the
 * tsc output in dist/ (the agent and the aggregator images, gate, prune, tuple). Resolving and
 * loading one file instead of ~150 modules is most of `virtgate check`'s start-up; the bin's
 * module compile cache does the rest. Beside it, dist/bundle/guest-child.js: kvm.run's child,
 * found beside the code that starts it (core/kvm/run-guest.ts).
 */
import path from 'node:path';
import { build, type Plugin } from 'rolldown';
import { PACKAGE_ROOT, VIRTGATE_VERSION } from '../core/package-info.ts';

export const BUNDLE_DIR = path.join(PACKAGE_ROOT, 'dist', 'bundle');

/**
 * The program's other subcommands, present and future (any `./commands/<name>.ts` but check),
 * are never loaded by the bundle (the bin sends only `check` here); they stay out of it, as
 * imports of their compiled files, so the file holds only what
 * `check` runs. So does `check --node`'s runner (@kubernetes/client-node, ten times the rest of
 * the bundle): the bin runs `check --node` from dist/ (cli/main.ts).
 */
const otherCommandsFromDist: Plugin = {
  name: 'virtgate-other-commands-from-dist',
  resolveId(source, importer) {
    const match = /^\.\/commands\/(?!check\.ts$)([\w-]+)\.ts$/.exec(source);
    if (match && importer?.endsWith(path.join('cli', 'program.ts'))) return { id: `../cli/commands/${match[1]}.js`, external: true };
    if (source === '../check-node/run.ts' && importer?.endsWith(path.join('cli', 'commands', 'check.ts'))) return { id: '../cli/check-node/run.js', external: true };
    return null;
  },
};

/**
 * Node's built-in modules through `process.getBuiltinModule` instead of `import`: an ESM import
 * of a built-in builds a facade that reads every export, and node:fs's getters then load the
 * whole streams stack. Rewrites the chunk's own top-level import lines; any other form stays an
 * import, which is as correct, only slower.
 */
const builtinsWithoutFacades: Plugin = {
  name: 'virtgate-builtins-without-facades',
  renderChunk(code) {
    const IMPORT = /^import (?:([\w$]+)(?:, )?)?(?:\{([^}]*)\})? ?from "(node:[\w/]+)";$/gm;
    return code.replace(IMPORT, (_line, name: string | undefined, named: string | undefined, specifier: string) => {
      // globalThis: a chunk whose own binding is named `process` (node:process imported) would shadow it.
      const module = `globalThis.process.getBuiltinModule(${JSON.stringify(specifier)})`;
      const bindings = (named ?? '')
        .split(',')
        .map((part) => part.trim().replace(/ as /, ': '))
        .filter(Boolean);
      if (name === undefined) return `const { ${bindings.join(', ')} } = ${module};`;
      return bindings.length === 0 ? `const ${name} = ${module};` : `const ${name} = ${module}; const { ${bindings.join(', ')} } = ${name};`;
    });
  },
};

/**
 * commander imports node:child_process for executable subcommands, which virtgate has none of;
 * loading it (and the net and stream modules it needs) is a tenth of `check`'s start. Loaded when
 * a subcommand would be spawned instead.
 */
const lazyChildProcessInCommander: Plugin = {
  name: 'virtgate-lazy-child-process-in-commander',
  transform(code, id) {
    if (!id.includes(`${path.sep}commander${path.sep}`) || !code.includes("import childProcess from 'node:child_process';")) return null;
    return code.replace("import childProcess from 'node:child_process';", "const childProcess = { spawn: (...args) => process.getBuiltinModule('node:child_process').spawn(...args) };");
  },
};

/**
 * `check.js` as one function expression, `(function (bundleUrl, importer) { … return { main }; })`,
 * which the bin compiles with vm.Script to keep V8's code cache made after a run
 * (cli/run-bundle.ts): Node's module compile cache is made when a module is compiled, before the
 * run compiles most functions lazily, so it misses them. The chunk has no static import left
 * (built-ins come through getBuiltinModule); import.meta.url becomes the file's URL and each
 * `import("…")` the bin's importer, both passed in (a script's own import() would need vm's
 * experimental loader option). Its first line, `// virtgate <version>`, names the code cache's
 * file: one per version.
 */
const asFunctionExpression: Plugin = {
  name: 'virtgate-as-function-expression',
  renderChunk(code) {
    const EXPORT = /\nexport \{ main \};\s*$/;
    if (/^import\b/m.test(code) || !EXPORT.test(code)) throw new Error('bundle: check.js must have no static import and end with `export { main };` to become a function expression');
    const body = code
      .replaceAll('import.meta.url', '__virtgateBundleUrl')
      .replace(/\bimport\((?=")/g, '__virtgateImport(')
      .replace(EXPORT, '\nreturn { main };\n');
    if (/\bimport\(|import\.meta/.test(body)) throw new Error('bundle: check.js has an import() or import.meta the function expression cannot take');
    return `// virtgate ${VIRTGATE_VERSION}\n(function (__virtgateBundleUrl, __virtgateImport) {\n"use strict";\n${body}})\n`;
  },
};

async function bundle(input: string, file: string, plugins: Plugin[] = []): Promise<void> {
  await build({
    input: path.join(PACKAGE_ROOT, input),
    platform: 'node',
    // koffi is a native module, loaded by path at run time: it stays in node_modules. execa and
    // systeminformation are imported only when a process is started (virt-host-validate, the
    // tiny guest, lscpu for an arm64 CPU's name): from node_modules then, so that `check`
    // without them reads and compiles a fifth of the code.
    external: ['koffi', 'execa', 'systeminformation'],
    plugins,
    logLevel: 'warn',
    output: { file: path.join(BUNDLE_DIR, file), format: 'esm', codeSplitting: false, minify: false, comments: { legal: true, annotation: false, jsdoc: false } },
  });
}

await bundle('cli/program.ts', 'check.js', [otherCommandsFromDist, lazyChildProcessInCommander, builtinsWithoutFacades, asFunctionExpression]);
await bundle('core/kvm/guest-child.ts', 'guest-child.js');
