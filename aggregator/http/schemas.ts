import { inventorySchema } from '../../core/inventory/schema.ts';
import { z } from 'zod';
import type { JsonObject } from '../../core/json.ts';
import { CHECK_STATUSES } from '../../core/checks/result.ts';
import { DOCUMENT_API_VERSION, DOCUMENT_KINDS, type DocumentKind } from '../../core/documents.ts';
import { TIERS } from '../../core/checks/verdict.ts';
import { GATE_CHECK_IDS, GATE_STATUSES, type GateCheck, type GateReport } from '../gate/types.ts';
import { type ClusterReadiness, NODE_STATES, type NodeReadiness, UNKNOWN_CAUSES } from '../readiness/types.ts';
import type { AggregatorStatus } from '../service/types.ts';

/**
 * The JSON the aggregator serves, as zod schemas: one source for the fastify response schemas
 * (which document the API and drop anything not declared), the tests that check responses,
 * and docs/aggregator.md. The compile-time checks at the end keep them equal to the types the
 * gate produces. Every document starts with `apiVersion` and `kind` (core/documents.ts).
 */

/** `apiVersion` and `kind` of one document, to spread first into its schema (the serialiser keeps the order). */
export function typeMetaShape<K extends DocumentKind>(kind: K) {
  return { apiVersion: z.literal(DOCUMENT_API_VERSION), kind: z.literal(kind) };
}

const gateStatus = z.enum(GATE_STATUSES);
const nodeState = z.enum(NODE_STATES);

/** Evidence is small free-form JSON; its keys per check are listed in docs/gate.md. */
const evidence = z.record(z.string(), z.json());

export const observedVersionSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('known'), version: z.string(), minor: z.string() }),
  z.strictObject({ state: z.literal('absent'), reason: z.string() }),
  z.strictObject({ state: z.literal('unknown'), reason: z.string() }),
]);

export const gateCheckSchema = z.strictObject({
  id: z.enum(GATE_CHECK_IDS),
  status: gateStatus,
  message: z.string(),
  evidence,
});

export const nodeReadinessSchema = z.strictObject({
  name: z.string(),
  state: nodeState,
  reason: z.string(),
  unknownCause: z.enum(UNKNOWN_CAUSES).nullable(),
  tier: z.enum(TIERS).nullable(),
  cpuVendor: z.string().nullable(),
  kernel: z.string().nullable(),
  containerRuntime: z.string().nullable(),
  heartbeatAt: z.string().nullable(),
  heartbeatAgeSeconds: z.number().nullable(),
  agentVersion: z.string().nullable(),
  failingChecks: z.array(z.strictObject({ id: z.string(), status: z.enum(CHECK_STATUSES), message: z.string() })),
  migrationTargets: z.number().int().nullable(),
  inventory: inventorySchema.nullable(),
});

const stateCounts = z.strictObject({ ready: z.number().int(), emulation: z.number().int(), 'not-ready': z.number().int(), unknown: z.number().int() });

const ignoredSchema = z.strictObject({
  unnamedNodes: z.number().int(),
  duplicateNodes: z.number().int(),
  orphanReports: z.array(z.string()),
  orphanReportCount: z.number().int(),
  unnamedReports: z.number().int(),
});

export const clusterReadinessSchema = z.strictObject({
  total: z.number().int(),
  counts: stateCounts,
  readyRatio: z.number(),
  nodes: z.array(nodeReadinessSchema),
  ignored: ignoredSchema,
});

const versionsSchema = z.strictObject({
  kubernetes: observedVersionSchema,
  kubevirt: observedVersionSchema,
  cdi: observedVersionSchema,
  dataUpdated: z.string(),
});

export const gateReportSchema = z.strictObject({
  result: gateStatus,
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(3)]),
  evaluatedAt: z.string(),
  checks: z.array(gateCheckSchema),
  versions: versionsSchema,
  readiness: clusterReadinessSchema,
});

const watchStatusSchema = z.strictObject({
  kind: z.string(),
  synced: z.boolean(),
  healthy: z.boolean(),
  objects: z.number().int(),
  lastListAt: z.string().nullable(),
  lastEventAt: z.string().nullable(),
  lists: z.number().int(),
  error: z.string().nullable(),
});

export const aggregatorStatusSchema = z.strictObject({
  ready: z.boolean(),
  reason: z.string(),
  synced: z.boolean(),
  healthy: z.boolean(),
  lastInSyncAt: z.string().nullable(),
  reportComputedAt: z.string().nullable(),
  reportAgeSeconds: z.number().nullable(),
  recomputeSeconds: z.number().nullable(),
  serverVersion: z.strictObject({ gitVersion: z.string().nullable(), readAt: z.string().nullable(), error: z.string().nullable() }),
  watches: z.array(watchStatusSchema),
  settings: z.strictObject({
    prefix: z.string(),
    minReady: z.number(),
    staleAfterSeconds: z.number(),
    eolWarnDays: z.number(),
    dataMaxAgeDays: z.number(),
    versionsFile: z.string(),
    dataUpdated: z.string(),
  }),
  virtgateVersion: z.string(),
});

/** `virtgate gate --json`: the gate report as a document. */
export const gateResultSchema = z.strictObject({ ...typeMetaShape(DOCUMENT_KINDS.gate), ...gateReportSchema.shape });

/** GET /api/v1/gate: the whole gate report (the members of `virtgate gate --json`) and the aggregator's state. */
export const gateResponseSchema = z.strictObject({ ...typeMetaShape(DOCUMENT_KINDS.apiGate), ...gateReportSchema.shape, aggregator: aggregatorStatusSchema });

/** The gate document without `aggregator`: what the API serialises once per report (http/report-bytes.ts). */
export const gateDocumentSchema = gateResponseSchema.omit({ aggregator: true });

/** GET /api/v1/summary: the verdict and the counts, without the node list. */
export const summaryResponseSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.apiSummary),
  result: gateStatus,
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(3)]),
  evaluatedAt: z.string(),
  versions: versionsSchema,
  nodes: z.strictObject({ total: z.number().int(), counts: stateCounts, readyRatio: z.number() }),
  checks: z.strictObject({
    counts: z.strictObject({ pass: z.number().int(), unknown: z.number().int(), warn: z.number().int(), fail: z.number().int() }),
    /** Every check that did not pass, worst first, without evidence. */
    notPassing: z.array(z.strictObject({ id: z.enum(GATE_CHECK_IDS), status: gateStatus, message: z.string() })),
  }),
  ignored: ignoredSchema,
  aggregator: aggregatorStatusSchema,
});

/** GET /api/v1/nodes[?state=...]: nodes worst first. */
export const nodesResponseSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.apiNodes),
  evaluatedAt: z.string(),
  total: z.number().int(),
  counts: stateCounts,
  /** The state filter applied, or null. */
  state: nodeState.nullable(),
  nodes: z.array(nodeReadinessSchema),
  aggregator: aggregatorStatusSchema,
});

/** The node list without `aggregator`: what the API serialises once per report (http/report-bytes.ts). */
export const nodesDocumentSchema = nodesResponseSchema.omit({ aggregator: true });

export const nodesQuerySchema = z.strictObject({ state: nodeState.optional() });

/** GET /api/v1/nodes/:name */
export const nodeResponseSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.apiNode),
  evaluatedAt: z.string(),
  node: nodeReadinessSchema,
  aggregator: aggregatorStatusSchema,
});

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

export type GateResult = z.infer<typeof gateResultSchema>;
export type GateResponse = z.infer<typeof gateResponseSchema>;
export type SummaryResponse = z.infer<typeof summaryResponseSchema>;
export type NodesResponse = z.infer<typeof nodesResponseSchema>;
export type NodeResponse = z.infer<typeof nodeResponseSchema>;
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * A JSON Schema (draft-07, which fastify's serializer speaks) for a response. Evidence becomes a
 * plain object of JSON values: serialised as it is, not checked member by member.
 */
export function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    override: (context) => {
      if (context.zodSchema === evidence) {
        for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
        Object.assign(context.jsonSchema, { type: 'object', additionalProperties: true });
      }
    },
  });
  return rest;
}

/** Compile-time: the schemas describe exactly what the gate and the aggregator produce. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Mutually assignable and with the same keys (assignability alone ignores an added optional field). */
type Same<A, B> = Mutual<A, B> extends true ? Mutual<keyof A, keyof B> : false;
type Report = z.infer<typeof gateReportSchema>;
export const SCHEMAS_MATCH_TYPES: [
  Same<Omit<Report, 'checks'>, Omit<GateReport, 'checks'>>,
  Same<Omit<Report['checks'][number], 'evidence'>, Omit<GateCheck, 'evidence'>>,
  Mutual<Report['checks'][number]['evidence'], JsonObject>,
  Same<Report['readiness'], ClusterReadiness>,
  Same<z.infer<typeof nodeReadinessSchema>, NodeReadiness>,
  Same<z.infer<typeof aggregatorStatusSchema>, AggregatorStatus>,
] = [true, true, true, true, true, true];
