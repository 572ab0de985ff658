import { z } from 'zod';
import { DOCUMENT_KINDS } from '../../core/documents.ts';
import { aggregatorStatusSchema } from './aggregator-status.ts';
import { GATE_CHECK_IDS, gateExitCodeSchema, gateResultSchema, gateStatusSchema, gateVersionsSchema } from './gate.ts';
import { typeMetaShape } from './meta.ts';
import { ignoredSchema, nodeReadinessSchema, nodeStateSchema, stateCountsSchema } from './readiness.ts';

/** The bodies of the aggregator's HTTP API (http/api.ts), one schema per route. */

/** GET /api/v1/gate: the whole gate result (the members of `virtgate gate --json`) and the aggregator's state. */
export const gateResponseSchema = z.strictObject({ ...typeMetaShape(DOCUMENT_KINDS.apiGate), ...gateResultSchema.shape, aggregator: aggregatorStatusSchema });
export type GateResponse = z.infer<typeof gateResponseSchema>;

/** The gate document without `aggregator`: what the API serialises once per report (http/report-bytes.ts). */
export const gateDocumentSchema = gateResponseSchema.omit({ aggregator: true });

/** GET /api/v1/summary: the verdict and the counts, without the node list. */
export const summaryResponseSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.apiSummary),
  result: gateStatusSchema,
  exitCode: gateExitCodeSchema,
  evaluatedAt: z.string(),
  versions: gateVersionsSchema,
  nodes: z.strictObject({ total: z.number().int(), counts: stateCountsSchema, readyRatio: z.number() }),
  checks: z.strictObject({
    counts: z.strictObject({ pass: z.number().int(), unknown: z.number().int(), warn: z.number().int(), fail: z.number().int() }),
    /** Every check that did not pass, worst first, without evidence. */
    notPassing: z.array(z.strictObject({ id: z.enum(GATE_CHECK_IDS), status: gateStatusSchema, message: z.string() })),
  }),
  ignored: ignoredSchema,
  aggregator: aggregatorStatusSchema,
});
export type SummaryResponse = z.infer<typeof summaryResponseSchema>;

/** GET /api/v1/nodes[?state=...]: nodes worst first. */
export const nodesResponseSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.apiNodes),
  evaluatedAt: z.string(),
  total: z.number().int(),
  counts: stateCountsSchema,
  /** The state filter applied, or null. */
  state: nodeStateSchema.nullable(),
  nodes: z.array(nodeReadinessSchema),
  aggregator: aggregatorStatusSchema,
});
export type NodesResponse = z.infer<typeof nodesResponseSchema>;

/** The node list without `aggregator`: what the API serialises once per report (http/report-bytes.ts). */
export const nodesDocumentSchema = nodesResponseSchema.omit({ aggregator: true });

export const nodesQuerySchema = z.strictObject({ state: nodeStateSchema.optional() });

/** GET /api/v1/nodes/:name */
export const nodeResponseSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.apiNode),
  evaluatedAt: z.string(),
  node: nodeReadinessSchema,
  aggregator: aggregatorStatusSchema,
});
export type NodeResponse = z.infer<typeof nodeResponseSchema>;

/**
 * Every error body: 404 for an unknown node or route, 503 before the first full sync, 400 for a
 * request the routes refuse (an unknown `state`), 500 for a fault of the aggregator's own.
 */
export const errorResponseSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.apiError),
  error: z.enum(['not-found', 'not-synced', 'bad-request', 'internal']),
  message: z.string(),
  aggregator: aggregatorStatusSchema.optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
