/**
 * `npm run generate:settings`: writes what follows from the programs' settings tables — the
 * settings tables of the docs, and the chart's values.yaml regions, values.schema.json and
 * templates/_settings.tpl.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { ARGS_TEMPLATE_FILE, argsTemplate, chartSchema, replaceValuesRegion, SCHEMA_BASE_FILE, SCHEMA_FILE, VALUES_FILE, VALUES_REGIONS, valuesRegion } from './chart-settings.ts';
import { replaceRegion, SETTINGS_DOCS, settingsMarkdown } from './settings.ts';

const at = (file: string) => path.join(PACKAGE_ROOT, file);

async function write(file: string, text: string): Promise<void> {
  await writeFile(at(file), text);
  process.stdout.write(`wrote ${file}\n`);
}

for (const { file, region, table } of SETTINGS_DOCS) await write(file, replaceRegion(await readFile(at(file), 'utf8'), region, settingsMarkdown(table)));

let values = await readFile(at(VALUES_FILE), 'utf8');
for (const region of VALUES_REGIONS) values = replaceValuesRegion(values, region, valuesRegion(region));
await write(VALUES_FILE, values);

await write(SCHEMA_FILE, `${JSON.stringify(chartSchema(JSON.parse(await readFile(at(SCHEMA_BASE_FILE), 'utf8'))), null, 2)}\n`);
await write(ARGS_TEMPLATE_FILE, argsTemplate());
