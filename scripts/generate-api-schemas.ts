/** `npm run generate:api`: writes one JSON Schema per aggregator document into docs/api/, generated from aggregator/documents/. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { API_SCHEMA_FOLDER, PUBLISHED_DOCUMENTS, publishedSchemaText } from '../aggregator/documents/json-schema.ts';

await mkdir(path.join(PACKAGE_ROOT, API_SCHEMA_FOLDER), { recursive: true });
for (const document of PUBLISHED_DOCUMENTS) {
  await writeFile(path.join(PACKAGE_ROOT, API_SCHEMA_FOLDER, document.file), publishedSchemaText(document));
  process.stdout.write(`wrote ${API_SCHEMA_FOLDER}/${document.file}\n`);
}
