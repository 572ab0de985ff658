import { z } from 'zod';
import { DOCUMENT_API_VERSION, type DocumentKind } from '../../core/documents.ts';

/**
 * The aggregator's documents live in this folder as zod schemas: the one source of their
 * TypeScript types (z.infer), of the fastify response schemas, of the JSON Schemas in docs/api/
 * and of the checks the tests make on responses. No module here imports node: or server code,
 * because the page (compiled for the browser) imports their types.
 */

/** `apiVersion` and `kind` of one document, to spread first into its schema (the serialiser keeps the order). */
export function typeMetaShape<K extends DocumentKind>(kind: K) {
  return { apiVersion: z.literal(DOCUMENT_API_VERSION), kind: z.literal(kind) };
}
