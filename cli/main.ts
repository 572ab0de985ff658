#!/usr/bin/env node
// No static imports: on an older Node.js the libraries fail while loading, with errors that do not
// say why (Node 20: "TEXT_ENCODINGS.union is not a function"). The version is checked first.
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < REQUIRED_MAJOR) {
  process.stderr.write(`virtgate: needs Node.js ${REQUIRED_MAJOR} or newer; this is Node.js ${process.versions.node} (${process.execPath}). Install Node.js ${REQUIRED_MAJOR} (scripts/node24.sh does it) and run again.\n`);
  process.exitCode = 2;
} else {
  const { enableCompileCache } = await import('node:module');
  // V8's compiled code kept between runs (in the system's temporary directory): start-up without
  // parsing and compiling again. Unavailable (a read-only /tmp) only means a slower start.
  enableCompileCache();
  // `check` from one bundled file when the build made it (scripts/bundle.ts); from the modules otherwise.
  const bundle = new URL('../bundle/check.js', import.meta.url);
  const { existsSync } = await import('node:fs');
  const program: { main: (argv: string[]) => Promise<void> } =
    process.argv[2] === 'check' && existsSync(bundle) ? await import(bundle.href) : await import('./program.ts');
  await program.main(process.argv);
}
