import { z } from 'zod';
import { DOCUMENT_API_VERSION } from '../../core/documents.ts';
import { errorResponseSchema, gateResponseSchema, nodeResponseSchema, nodesResponseSchema, summaryResponseSchema } from './api.ts';
import { evidenceSchema, gateResultDocumentSchema } from './gate.ts';
import { gateErrorDocumentSchema } from './gate-error.ts';
import { canaryResponseSchema } from './canary.ts';
import { explainResultSchema } from '../../explain/document.ts';

/**
 * A JSON Schema (draft-07, which fastify's serializer speaks) for a document. Evidence becomes a
 * plain object of JSON values: serialised as it is, not checked member by member.
 */
export function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    override: (context) => {
      if (context.zodSchema === evidenceSchema) {
        for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
        Object.assign(context.jsonSchema, { type: 'object', additionalProperties: true });
      }
    },
  });
  return rest;
}

/** The documents published for API users in docs/api/ (`npm run generate:api`), one file each. */
export const PUBLISHED_DOCUMENTS = [
  { file: 'gate-result.schema.json', title: '`virtgate gate --json`', schema: gateResultDocumentSchema },
  { file: 'explain-result.schema.json', title: '`virtgate explain --json`', schema: explainResultSchema },
  { file: 'gate-error.schema.json', title: '`virtgate gate --json` when the cluster cannot be read (exit 4)', schema: gateErrorDocumentSchema },
  { file: 'gate-response.schema.json', title: 'GET /api/v1/gate', schema: gateResponseSchema },
  { file: 'summary-response.schema.json', title: 'GET /api/v1/summary', schema: summaryResponseSchema },
  { file: 'nodes-response.schema.json', title: 'GET /api/v1/nodes', schema: nodesResponseSchema },
  { file: 'node-response.schema.json', title: 'GET /api/v1/nodes/{name}', schema: nodeResponseSchema },
  { file: 'canary-response.schema.json', title: 'GET /api/v1/canary', schema: canaryResponseSchema },
  { file: 'error-response.schema.json', title: 'Every error body of the API', schema: errorResponseSchema },
] as const;

export const API_SCHEMA_FOLDER = 'docs/api';

/** One published file's text: the schema with its dialect and a title, as formatted JSON. */
export function publishedSchemaText(document: (typeof PUBLISHED_DOCUMENTS)[number]): string {
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', title: `${DOCUMENT_API_VERSION} ${document.title}`, ...jsonSchema(document.schema) };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
