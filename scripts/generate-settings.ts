/** `npm run generate:settings`: writes the settings tables of the docs from the programs' settings tables. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { replaceRegion, SETTINGS_DOCS, settingsMarkdown } from './settings.ts';

for (const { file, region, table } of SETTINGS_DOCS) {
  const target = path.join(PACKAGE_ROOT, file);
  await writeFile(target, replaceRegion(await readFile(target, 'utf8'), region, settingsMarkdown(table)));
  process.stdout.write(`wrote the ${region} settings of ${file}\n`);
}
