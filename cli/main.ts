#!/usr/bin/env node
// No static imports: on an older Node.js the libraries fail while loading, with errors that do not
// say why (Node 20: "TEXT_ENCODINGS.union is not a function"). The version is checked first.
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < REQUIRED_MAJOR) {
  process.stderr.write(`virtgate: needs Node.js ${REQUIRED_MAJOR} or newer; this is Node.js ${process.versions.node} (${process.execPath}). Install Node.js ${REQUIRED_MAJOR} (scripts/node24.sh does it) and run again.\n`);
  process.exitCode = 2;
} else {
  await (await import('./program.ts')).main(process.argv);
}
