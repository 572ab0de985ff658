#!/usr/bin/env node
// No static imports: on an older Node.js the libraries fail while loading, with errors that do not
// say why (Node 20: "TEXT_ENCODINGS.union is not a function"). The version is checked first.
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < REQUIRED_MAJOR) {
  process.stderr.write(`virtgate: needs Node.js ${REQUIRED_MAJOR} or newer; this is Node.js ${process.versions.node} (${process.execPath}). Install Node.js ${REQUIRED_MAJOR} (scripts/node24.sh does it) and run again.\n`);
  process.exitCode = 2;
} else {
  // `check --node` runs from dist/ like the cluster commands: its runner is compiled there, not
  // bundled (scripts/bundle.ts), and one copy of each error class keeps `instanceof` true.
  const onNode = process.argv.some((arg) => arg === '--node' || arg.startsWith('--node='));
  // A command run by hand and in loops: V8's compiled code kept between runs (in the system's
  // temporary directory; unavailable, it only starts slower), and `check` from one bundled file
  // when the build made it (scripts/bundle.ts, cli/run-bundle.ts). Not for the agent and the
  // aggregator, whose containers should not grow a cache directory, nor its pages their working
  // set. Built-ins through getBuiltinModule: an ESM import of node:fs builds a facade whose
  // getters load the whole streams stack.
  const bundle = new URL('../bundle/check.js', import.meta.url);
  if (process.argv[2] === 'check' && !onNode && process.getBuiltinModule('node:fs').existsSync(bundle)) {
    process.getBuiltinModule('node:module').enableCompileCache();
    await (await import('./run-bundle.ts')).runBundle(bundle, process.argv);
  } else {
    await (await import('./program.ts')).main(process.argv);
  }
}
