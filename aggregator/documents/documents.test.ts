import { describe, expect, it } from 'vitest';
import { healthyCluster, NOW, rawNode } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { statusOf, VERSION_DATA } from '../../test/lab/aggregator/gate-source.ts';
import { DOCUMENT_API_VERSION } from '../../core/documents.ts';
import { gate } from '../gate/gate.ts';
import { observeVersion } from '../gate/observed-version.ts';
import { evaluateTuple } from '../gate/tuple.ts';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import { aggregatorStatusSchema } from './aggregator-status.ts';
import { errorResponseSchema, nodeResponseSchema, nodesQuerySchema } from './api.ts';
import { gateCheckSchema, gateResultDocumentSchema, gateResultSchema, observedVersionSchema, tupleResultSchema } from './gate.ts';
import { gateErrorDocumentSchema, gateErrorReason } from './gate-error.ts';
import { jsonSchema } from './json-schema.ts';
import { type NodeReadiness, nodeReadinessSchema } from './readiness.ts';

/** A node as an API user would write it from docs/aggregator.md. */
const NODE: NodeReadiness = {
  name: 'worker-1',
  state: 'ready',
  reason: 'ready: KVM acceleration',
  unknownCause: null,
  tier: 'hardware',
  cpuVendor: 'intel',
  kernel: '5.14',
  containerRuntime: 'containerd://2.1.4',
  heartbeatAt: '2026-12-02T11:59:00Z',
  heartbeatAgeSeconds: 60,
  agentVersion: '0.1.0',
  failingChecks: [{ id: 'kernel.version', status: 'warn', message: 'non-EL kernel' }],
  migrationTargets: 3,
  confidential: ['sev-snp', 'sev-es', 'sev'],
  inventory: { collected: false, reason: 'not collected' },
  unreadFields: [],
};

const TYPE_META = { apiVersion: DOCUMENT_API_VERSION };

describe('the aggregator documents', () => {
  it('accept hand-written documents of each shape', () => {
    expect(nodeReadinessSchema.parse(NODE)).toEqual(NODE);
    expect(nodeReadinessSchema.safeParse({ ...NODE, state: 'unknown', unknownCause: 'stale', tier: null, inventory: null, migrationTargets: null }).success).toBe(true);
    expect(observedVersionSchema.safeParse({ state: 'known', version: 'v1.36.3', minor: '1.36' }).success).toBe(true);
    expect(observedVersionSchema.safeParse({ state: 'absent', reason: 'KubeVirt is not installed' }).success).toBe(true);
    expect(gateCheckSchema.safeParse({ id: 'nodes.min-ready', status: 'warn', message: '1 of 2', evidence: { ready: 1, nodes: ['a', { b: null }] } }).success).toBe(true);
    const status = statusOf();
    expect(aggregatorStatusSchema.parse(status)).toEqual(status);
    expect(nodeResponseSchema.safeParse({ ...TYPE_META, kind: 'NodeReadiness', evaluatedAt: '2026-12-02T12:00:00Z', node: NODE, aggregator: status }).success).toBe(true);
    expect(errorResponseSchema.safeParse({ ...TYPE_META, kind: 'Error', error: 'not-synced', message: 'not synced yet' }).success).toBe(true);
    expect(nodesQuerySchema.parse({})).toEqual({});
  });

  it('refuse documents that are wrong: a missing or unknown member, a value outside its enum, another kind or apiVersion', () => {
    const { reason: _reason, ...withoutReason } = NODE;
    expect(nodeReadinessSchema.safeParse(withoutReason).success).toBe(false);
    expect(nodeReadinessSchema.safeParse({ ...NODE, extra: 1 }).success).toBe(false);
    expect(nodeReadinessSchema.safeParse({ ...NODE, state: 'javascript:alert(1)' }).success).toBe(false);
    expect(nodeReadinessSchema.safeParse({ ...NODE, migrationTargets: 1.5 }).success).toBe(false);
    expect(nodeReadinessSchema.safeParse({ ...NODE, failingChecks: [{ id: 'x', status: 'bad', message: '' }] }).success).toBe(false);
    expect(observedVersionSchema.safeParse({ state: 'known', version: 'v1.36.3' }).success).toBe(false);
    expect(gateCheckSchema.safeParse({ id: 'nodes.unheard-of', status: 'pass', message: '', evidence: {} }).success).toBe(false);
    expect(gateCheckSchema.safeParse({ id: 'nodes.min-ready', status: 'pass', message: '', evidence: null }).success).toBe(false);
    expect(errorResponseSchema.safeParse({ ...TYPE_META, kind: 'GateReport', error: 'internal', message: '' }).success).toBe(false);
    expect(errorResponseSchema.safeParse({ apiVersion: 'virtgate.io/v2', kind: 'Error', error: 'internal', message: '' }).success).toBe(false);
    expect(nodesQuerySchema.safeParse({ state: 'broken' }).success).toBe(false);
  });

  it('describe what the gate produces, for a healthy cluster and for one with an unknown node', () => {
    const healthy = gate(healthyCluster(), VERSION_DATA, DEFAULT_GATE_CONFIG, NOW);
    expect(gateResultSchema.parse(healthy)).toEqual(healthy);
    const nodes = [...healthyCluster().nodes, rawNode('no-report')];
    const unknown = gate(healthyCluster({ nodes, serverGitVersion: null, kubevirt: { state: 'crd-absent' } }), VERSION_DATA, DEFAULT_GATE_CONFIG, NOW);
    expect(unknown.readiness.counts.unknown).toBe(1);
    expect(gateResultSchema.parse(unknown)).toEqual(unknown);
    const document = { ...TYPE_META, kind: 'GateResult', ...healthy };
    expect(gateResultDocumentSchema.safeParse(document).success).toBe(true);
    expect(gateResultDocumentSchema.safeParse({ ...document, kind: 'GateReport' }).success).toBe(false);
  });

  it('describe what the tuple evaluation produces; a gate-only check id is not a tuple check', () => {
    const tuple = { kubevirt: observeVersion('v1.8.2', 'none'), kubernetes: observeVersion('v1.34.3', 'none'), cdi: { state: 'absent' as const, reason: 'not given' } };
    const result = evaluateTuple(tuple, VERSION_DATA, DEFAULT_GATE_CONFIG, NOW);
    expect(tupleResultSchema.parse(result)).toEqual(result);
    const [first, ...rest] = result.checks;
    expect(tupleResultSchema.safeParse({ ...result, checks: [{ ...first, id: 'nodes.min-ready' }, ...rest] }).success).toBe(false);
  });

  it('describe the gate error document, and name the reason of each HTTP status', () => {
    const document = { ...TYPE_META, kind: 'GateError', error: { reason: 'Forbidden', httpStatus: 403, message: 'not allowed to list nodes (HTTP 403)' }, exitCode: 4 };
    expect(gateErrorDocumentSchema.parse(document)).toEqual(document);
    expect(gateErrorDocumentSchema.safeParse({ ...document, error: { reason: 'Unreachable', httpStatus: null, message: 'refused' } }).success).toBe(true);
    expect(gateErrorDocumentSchema.safeParse({ ...document, exitCode: 1 }).success).toBe(false);
    expect(gateErrorDocumentSchema.safeParse({ ...document, error: { ...document.error, reason: 'Teapot' } }).success).toBe(false);
    expect(gateErrorDocumentSchema.safeParse({ ...document, kind: 'Error' }).success).toBe(false);
    expect([0, 401, 403, 429, 500, 503, 400, 409].map(gateErrorReason)).toEqual(['Unreachable', 'Unauthorized', 'Forbidden', 'Throttled', 'ServerError', 'ServerError', 'ApiError', 'ApiError']);
  });

  it('serialise evidence as free JSON in the JSON Schema, and everything else member by member', () => {
    const schema = jsonSchema(gateCheckSchema) as { properties: Record<string, unknown>; additionalProperties: unknown };
    expect(schema.properties.evidence).toEqual({ type: 'object', additionalProperties: true });
    expect(schema.additionalProperties).toBe(false);
  });
});
