import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  errorResponseSchema,
  gateResponseSchema,
  nodeResponseSchema,
  nodesResponseSchema,
  summaryResponseSchema,
} from '../aggregator/documents/api.ts';
import { gateResultDocumentSchema } from '../aggregator/documents/gate.ts';
import { canaryResponseSchema } from '../aggregator/documents/canary.ts';
import { gateErrorDocumentSchema } from '../aggregator/documents/gate-error.ts';
import { explainResultSchema } from '../explain/document.ts';
import { buildHttp } from '../aggregator/http/server.ts';
import { healthyCluster } from '../test/lab/aggregator/cluster-fixtures.ts';
import { FakeSource, latestOf, statusOf } from '../test/lab/aggregator/gate-source.ts';
import { runCli } from '../test/lab/cli.ts';
import { writeKubeconfig } from '../test/lab/controlplane/kubeconfig.ts';
import { closedPort } from '../test/lab/controlplane/ports.ts';
import { DOCUMENT_API_VERSION, DOCUMENT_KINDS, type DocumentKind } from './documents.ts';
import { PACKAGE_ROOT } from './package-info.ts';

/**
 * Every JSON document virtgate emits, one row each: where it comes from, its kind, and the schema it
 * must parse with. Each must start with `{"apiVersion":"virtgate.io/v1alpha1","kind":...`.
 */
interface Row {
  what: string;
  kind: DocumentKind;
  status?: number;
  schema?: z.ZodType;
  get: () => Promise<{ status: number; body: string }>;
}

const synced = buildHttp(new FakeSource(latestOf(healthyCluster())), new Registry());
const unsynced = buildHttp(new FakeSource(null, statusOf({ ready: false, synced: false, healthy: false, reason: 'not synced yet: nodes' })), new Registry());
afterAll(async () => {
  await Promise.all([synced.close(), unsynced.close()]);
});

const inject = (app: typeof synced, url: string, method: 'GET' | 'POST' | 'DELETE' = 'GET') => async () => {
  await app.ready();
  const response = await app.inject({ url, method });
  return { status: response.statusCode, body: response.body };
};
const cli = (args: string[] | (() => Promise<string[]>)) => async () => {
  const outcome = await runCli(Array.isArray(args) ? args : await args());
  return { status: outcome.code, body: outcome.stdout };
};

/** A kubeconfig whose API server is a loopback port nothing listens on. */
async function unreachableKubeconfig(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'documents-'));
  return writeKubeconfig(path.join(dir, 'kubeconfig'), `https://127.0.0.1:${await closedPort()}`, path.join(dir, 'no-ca.crt'), { token: 'unused' });
}

const ROWS: Row[] = [
  { what: 'GET /api/v1/gate', kind: DOCUMENT_KINDS.apiGate, status: 200, schema: gateResponseSchema, get: inject(synced, '/api/v1/gate') },
  { what: 'GET /api/v1/summary', kind: DOCUMENT_KINDS.apiSummary, status: 200, schema: summaryResponseSchema, get: inject(synced, '/api/v1/summary') },
  { what: 'GET /api/v1/nodes', kind: DOCUMENT_KINDS.apiNodes, status: 200, schema: nodesResponseSchema, get: inject(synced, '/api/v1/nodes') },
  { what: 'GET /api/v1/nodes?state=ready', kind: DOCUMENT_KINDS.apiNodes, status: 200, schema: nodesResponseSchema, get: inject(synced, '/api/v1/nodes?state=ready') },
  { what: 'GET /api/v1/nodes/node-a', kind: DOCUMENT_KINDS.apiNode, status: 200, schema: nodeResponseSchema, get: inject(synced, '/api/v1/nodes/node-a') },
  { what: 'GET /api/v1/canary', kind: DOCUMENT_KINDS.apiCanary, status: 200, schema: canaryResponseSchema, get: inject(synced, '/api/v1/canary') },
  { what: 'GET /api/v1/nodes/no-such-node', kind: DOCUMENT_KINDS.apiError, status: 404, schema: errorResponseSchema, get: inject(synced, '/api/v1/nodes/no-such-node') },
  { what: 'GET /api/v1/nodes?state=bogus', kind: DOCUMENT_KINDS.apiError, status: 400, schema: errorResponseSchema, get: inject(synced, '/api/v1/nodes?state=bogus') },
  { what: 'GET /api/v1/no-such-route', kind: DOCUMENT_KINDS.apiError, status: 404, schema: errorResponseSchema, get: inject(synced, '/api/v1/no-such-route') },
  { what: 'POST /api/v1/gate', kind: DOCUMENT_KINDS.apiError, status: 404, schema: errorResponseSchema, get: inject(synced, '/api/v1/gate', 'POST') },
  ...['/api/v1/gate', '/api/v1/summary', '/api/v1/nodes', '/api/v1/nodes/node-a', '/api/v1/canary'].map(
    (url): Row => ({ what: `GET ${url} before the first sync`, kind: DOCUMENT_KINDS.apiError, status: 503, schema: errorResponseSchema, get: inject(unsynced, url) }),
  ),
  { what: 'virtgate tuple --json', kind: DOCUMENT_KINDS.tuple, status: 1, get: cli(['tuple', '--kubevirt', '1.7', '--kubernetes', '1.36', '--calendar-date', '2026-12-02', '--json']) },
  { what: 'virtgate check --json', kind: DOCUMENT_KINDS.check, get: cli(['check', '--json', '--no-vhv']) },
  {
    what: 'virtgate gate --json, API server unreachable',
    kind: DOCUMENT_KINDS.gateError,
    status: 4,
    schema: gateErrorDocumentSchema,
    get: cli(async () => ['gate', '--json', '--kubeconfig', await unreachableKubeconfig(), '--request-timeout', '2s']),
  },
];

/** `virtgate gate --json` needs a cluster: test/integration/aggregator-outputs.test.ts parses it with gateResultDocumentSchema. */
const GATE_CLI_TEST = 'test/integration/aggregator-outputs.test.ts';
const EXPLAIN_CLI_TEST = 'test/integration/explain.test.ts';

describe('every JSON document carries apiVersion and kind (core/documents.ts)', () => {
  it.each(ROWS)('$what: $kind', async ({ kind, status, schema, get }) => {
    const answer = await get();
    if (status !== undefined) expect(answer.status).toBe(status);
    // apiVersion and kind lead the document, the way Kubernetes objects print.
    expect(answer.body.replace(/\s/g, '').startsWith(`{"apiVersion":"${DOCUMENT_API_VERSION}","kind":"${kind}",`), answer.body.slice(0, 200)).toBe(true);
    const document: unknown = JSON.parse(answer.body);
    expect(document).toMatchObject({ apiVersion: DOCUMENT_API_VERSION, kind });
    if (schema) schema.parse(document);
  });

  it('covers every kind; the gate and explain CLIs are covered against a real cluster, and the page reads the same names', async () => {
    const covered = new Set<string>(ROWS.map((row) => row.kind));
    covered.add(DOCUMENT_KINDS.gate);
    covered.add(DOCUMENT_KINDS.explain);
    expect(explainResultSchema.shape.kind.value).toBe(DOCUMENT_KINDS.explain);
    expect(await readFile(path.join(PACKAGE_ROOT, EXPLAIN_CLI_TEST), 'utf8')).toContain('explainResultSchema.parse(JSON.parse(');
    expect([...covered].sort()).toEqual(Object.values(DOCUMENT_KINDS).sort());
    expect(gateResultDocumentSchema.shape.kind.value).toBe(DOCUMENT_KINDS.gate);
    expect(await readFile(path.join(PACKAGE_ROOT, GATE_CLI_TEST), 'utf8')).toContain('gateResultDocumentSchema.parse(JSON.parse(outcome.stdout))');
    const page = await readFile(path.join(PACKAGE_ROOT, 'aggregator/page/app.ts'), 'utf8');
    expect(page).toContain(`const DOCUMENT_API_VERSION = '${DOCUMENT_API_VERSION}';`);
    expect(page).toContain(`const GATE_KIND = '${DOCUMENT_KINDS.apiGate}';`);
    expect(page).toContain(`const ERROR_KIND = '${DOCUMENT_KINDS.apiError}';`);
    expect(page).toContain(`const CANARY_KIND = '${DOCUMENT_KINDS.apiCanary}';`);
    // Each kind names one document: no two uses share a name.
    expect(new Set(Object.values(DOCUMENT_KINDS)).size).toBe(Object.values(DOCUMENT_KINDS).length);
  });
});
