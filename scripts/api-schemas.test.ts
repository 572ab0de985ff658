import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_SCHEMA_FOLDER, PUBLISHED_DOCUMENTS, publishedSchemaText } from '../aggregator/documents/json-schema.ts';
import { PACKAGE_ROOT } from '../core/package-info.ts';

describe('the JSON Schemas of the aggregator documents in docs/api/', () => {
  it.each(PUBLISHED_DOCUMENTS.map((document) => [document.file, document] as const))('%s is the one generated from aggregator/documents/', (file, document) => {
    const committed = readFileSync(path.join(PACKAGE_ROOT, API_SCHEMA_FOLDER, file), 'utf8');
    expect(committed, `${API_SCHEMA_FOLDER}/${file} is out of date: run \`npm run generate:api\` and commit the result`).toBe(publishedSchemaText(document));
  });

  it('holds no schema that is not generated', () => {
    const files = readdirSync(path.join(PACKAGE_ROOT, API_SCHEMA_FOLDER)).filter((file) => file.endsWith('.schema.json'));
    expect(files.sort()).toEqual(PUBLISHED_DOCUMENTS.map((document) => document.file).sort());
  });
});
