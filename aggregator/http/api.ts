import type { FastifyInstance, FastifyReply } from 'fastify';
import { GATE_STATUSES, type GateStatus } from '../documents/gate.ts';
import { clusterReadinessSchema, NODE_STATES, type NodeState, nodeReadinessSchema } from '../documents/readiness.ts';
import type { GateSource } from '../service/gate-source.ts';
import { DOCUMENT_KINDS, typeMeta } from '../../core/documents.ts';
import { NodeIndex } from './node-index.ts';
import { registerCanaryRoute } from './canary-route.ts';
import { ReportBytes, withMember } from './report-bytes.ts';
import { gateDocumentBytes } from './gate-bytes.ts';
import { aggregatorStatusSchema } from '../documents/aggregator-status.ts';
import { jsonSchema } from '../documents/json-schema.ts';
import {
  type ErrorResponse,
  errorResponseSchema,
  gateDocumentSchema,
  gateResponseSchema,
  nodesDocumentSchema,
  type NodeResponse,
  nodeResponseSchema,
  type NodesResponse,
  nodesResponseSchema,
  type SummaryResponse,
  summaryResponseSchema,
} from '../documents/api.ts';

const RANK: Record<GateStatus, number> = { fail: 0, warn: 1, unknown: 2, pass: 3 };

/** fastify's own type for JSON it serialises; a response sent as bytes must say it itself. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * GET /api/v1/summary, /api/v1/nodes, /api/v1/nodes/:name and /api/v1/gate. Handlers serve the
 * latest report; they never evaluate the gate themselves. The response schemas (aggregator/documents/)
 * document the JSON and drop anything not declared in it. Before the first full sync every route
 * answers 503 with `error: not-synced`: an empty cluster and a cluster not yet read must not look
 * alike. Every body, errors included, starts with `apiVersion` and `kind` (core/documents.ts).
 */
export function registerApi(app: FastifyInstance, source: GateSource): void {
  const error = jsonSchema(errorResponseSchema);
  const notSynced = (): ErrorResponse => {
    const aggregator = source.status();
    return { ...typeMeta(DOCUMENT_KINDS.apiError), error: 'not-synced', message: `the aggregator has not read the cluster yet: ${aggregator.reason}`, aggregator };
  };

  // The gate report and the node list are large: they go out as bytes serialised once per report
  // (report-bytes.ts), through the same schemas as every other response, with the live
  // `aggregator` status appended as their last member, where the response schemas put it.
  const reportSchema = jsonSchema(gateDocumentSchema);
  const readinessSchema = jsonSchema(clusterReadinessSchema);
  const nodeSchema = jsonSchema(nodeReadinessSchema);
  const nodesSchema = jsonSchema(nodesDocumentSchema);
  const statusSchema = jsonSchema(aggregatorStatusSchema);
  const reports = new ReportBytes<'gate'>();
  const nodeLists = new ReportBytes<NodeState | null>();
  const nodes = new NodeIndex();
  const withStatus = (reply: FastifyReply, open: Buffer) => {
    const { body, length } = withMember(open, 'aggregator', reply.compileSerializationSchema(statusSchema)({ ...source.status() }));
    // A stream has no length of its own: without this header the response would be chunked.
    return reply.type(JSON_TYPE).header('content-length', length).send(body);
  };

  // Unknown routes and methods, refused requests (400) and the aggregator's own faults answer JSON
  // documents too, in the shape of the errors above.
  app.setNotFoundHandler(async (request, reply) => {
    const body: ErrorResponse = { ...typeMeta(DOCUMENT_KINDS.apiError), error: 'not-found', message: `no route ${request.method} ${request.url.slice(0, 200)}` };
    return reply.code(404).type(JSON_TYPE).send(JSON.stringify(body));
  });
  app.setErrorHandler(async (failure: { statusCode?: number; message?: string }, _request, reply) => {
    const status = typeof failure.statusCode === 'number' && failure.statusCode >= 400 && failure.statusCode < 600 ? failure.statusCode : 500;
    const body: ErrorResponse =
      status < 500
        ? { ...typeMeta(DOCUMENT_KINDS.apiError), error: status === 404 ? 'not-found' : 'bad-request', message: String(failure.message ?? 'bad request').slice(0, 500) }
        : { ...typeMeta(DOCUMENT_KINDS.apiError), error: 'internal', message: `internal error: ${String(failure.message ?? 'unknown')}`.slice(0, 500) };
    return reply.code(status).type(JSON_TYPE).send(JSON.stringify(body));
  });

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });

  // The 200 schema documents the response (GateResponse); the bytes are serialised from its parts.
  app.get('/api/v1/gate', { schema: { response: { 200: jsonSchema(gateResponseSchema), 503: error } } }, async (_request, reply) => {
    const latest = source.latest();
    if (!latest) return reply.code(503).send(notSynced());
    const { result: gateResult } = latest;
    return withStatus(
      reply,
      reports.open(gateResult, 'gate', () =>
        gateDocumentBytes(
          { ...typeMeta(DOCUMENT_KINDS.apiGate), ...gateResult },
          { document: reply.compileSerializationSchema(reportSchema), readiness: reply.compileSerializationSchema(readinessSchema), node: reply.compileSerializationSchema(nodeSchema) },
        ),
      ),
    );
  });

  app.get('/api/v1/summary', { schema: { response: { 200: jsonSchema(summaryResponseSchema), 503: error } } }, async (_request, reply) => {
    const latest = source.latest();
    if (!latest) return reply.code(503).send(notSynced());
    const { result: gateResult } = latest;
    const counts = Object.fromEntries(GATE_STATUSES.map((status) => [status, 0])) as Record<GateStatus, number>;
    for (const check of gateResult.checks) counts[check.status] += 1;
    const notPassing = gateResult.checks
      .filter((check) => check.status !== 'pass')
      .sort((a, b) => RANK[a.status] - RANK[b.status])
      .map(({ id, status, message }) => ({ id, status, message }));
    const body: SummaryResponse = {
      ...typeMeta(DOCUMENT_KINDS.apiSummary),
      result: gateResult.result,
      exitCode: gateResult.exitCode,
      evaluatedAt: gateResult.evaluatedAt,
      versions: gateResult.versions,
      nodes: { total: gateResult.readiness.total, counts: gateResult.readiness.counts, readyRatio: gateResult.readiness.readyRatio },
      checks: { counts, notPassing },
      ignored: gateResult.readiness.ignored,
      aggregator: source.status(),
    };
    return body;
  });

  app.get<{ Querystring: { state?: NodeState } }>(
    '/api/v1/nodes',
    {
      schema: {
        querystring: { type: 'object', properties: { state: { type: 'string', enum: [...NODE_STATES] } }, additionalProperties: false },
        response: { 200: jsonSchema(nodesResponseSchema), 503: error },
      },
    },
    async (request, reply) => {
      const latest = source.latest();
      if (!latest) return reply.code(503).send(notSynced());
      const { result: gateResult } = latest;
      const state = request.query.state ?? null;
      const open = nodeLists.open(gateResult, state, () => {
        const document: Omit<NodesResponse, 'aggregator'> = {
          ...typeMeta(DOCUMENT_KINDS.apiNodes),
          evaluatedAt: gateResult.evaluatedAt,
          total: gateResult.readiness.total,
          counts: gateResult.readiness.counts,
          state,
          nodes: state === null ? gateResult.readiness.nodes : gateResult.readiness.nodes.filter((node) => node.state === state),
        };
        return reply.compileSerializationSchema(nodesSchema)(document);
      });
      return withStatus(reply, open);
    },
  );

  app.get<{ Params: { name: string } }>(
    '/api/v1/nodes/:name',
    { schema: { response: { 200: jsonSchema(nodeResponseSchema), 404: error, 503: error } } },
    async (request, reply) => {
      const latest = source.latest();
      if (!latest) return reply.code(503).send(notSynced());
      const node = nodes.get(latest.result, request.params.name);
      if (!node) {
        const body: ErrorResponse = { ...typeMeta(DOCUMENT_KINDS.apiError), error: 'not-found', message: `no node named ${JSON.stringify(request.params.name.slice(0, 253))} in the latest report` };
        return reply.code(404).send(body);
      }
      const body: NodeResponse = { ...typeMeta(DOCUMENT_KINDS.apiNode), evaluatedAt: latest.result.evaluatedAt, node, aggregator: source.status() };
      return body;
    },
  );
  // GET /api/v1/canary: the VM canary's results per node class.
  registerCanaryRoute(app, source, notSynced, error);
}
