/** `npm run generate:docs`: rewrites the docs' exit-code tables, synopses and permission tables from the commands' definitions. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { GENERATED_DOCS, regenerate } from './docs.ts';

for (const file of GENERATED_DOCS) {
  const target = path.join(PACKAGE_ROOT, file);
  const before = await readFile(target, 'utf8');
  const after = regenerate(before);
  if (after !== before) await writeFile(target, after);
  process.stdout.write(`${after === before ? 'unchanged' : 'wrote'} ${file}\n`);
}
