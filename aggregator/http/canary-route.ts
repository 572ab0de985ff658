import type { FastifyInstance } from 'fastify';
import { DOCUMENT_KINDS, typeMeta } from '../../core/documents.ts';
import type { ErrorResponse } from '../documents/api.ts';
import { type CanaryResponse, canaryResponseSchema } from '../documents/canary.ts';
import type { GateSource } from '../service/gate-source.ts';
import { jsonSchema } from '../documents/json-schema.ts';

/**
 * GET /api/v1/canary: the VM canary's results per node class, from the latest report (an empty
 * `classes` when no node has one: the canary is off or has not run). 503 before the first sync,
 * as every /api/v1 route.
 */
export function registerCanaryRoute(app: FastifyInstance, source: GateSource, notSynced: () => ErrorResponse, error: Record<string, unknown>): void {
  app.get('/api/v1/canary', { schema: { response: { 200: jsonSchema(canaryResponseSchema), 503: error } } }, async (_request, reply) => {
    const latest = source.latest();
    if (!latest) return reply.code(503).send(notSynced());
    const body: CanaryResponse = {
      ...typeMeta(DOCUMENT_KINDS.apiCanary),
      evaluatedAt: latest.result.evaluatedAt,
      ...latest.canary().summary,
      aggregator: source.status(),
    };
    return body;
  });
}
