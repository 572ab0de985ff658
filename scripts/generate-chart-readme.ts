/** `npm run generate:chart-readme`: writes the chart README's values table from values.yaml's `# --` comments. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { CHART_README, CHART_VALUES, VALUES_REGION, valuesMarkdown } from './chart-readme.ts';
import { replaceRegion } from './settings.ts';

const readme = path.join(PACKAGE_ROOT, CHART_README);
const values = await readFile(path.join(PACKAGE_ROOT, CHART_VALUES), 'utf8');
await writeFile(readme, replaceRegion(await readFile(readme, 'utf8'), VALUES_REGION, valuesMarkdown(values)));
process.stdout.write(`wrote the values table of ${CHART_README}\n`);
