import { GATE_CHECK_IDS } from '../documents/gate.ts';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { healthyCluster, rawNode, rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { FakeSource, latestOf, statusOf } from '../../test/lab/aggregator/gate-source.ts';
import { errorResponseSchema, gateResponseSchema, nodeResponseSchema, nodesResponseSchema, summaryResponseSchema } from '../documents/api.ts';
import { jsonSchema } from '../documents/json-schema.ts';
import { buildHttp } from './server.ts';
import { createAggregatorMetrics } from '../metrics.ts';
import { DOCUMENT_KINDS, typeMeta } from '../../core/documents.ts';

const apps: Array<ReturnType<typeof buildHttp>> = [];

async function serve(source: FakeSource, registry = new Registry()) {
  const app = buildHttp(source, registry);
  apps.push(app);
  await app.ready();
  return app;
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';

function failingCluster() {
  return healthyCluster({
    nodes: [rawNode('node-a'), rawNode('node-b'), rawNode('node-c', { runtime: 'docker://24.0.7' })],
    nodeValidations: [
      rawReport('node-a'),
      rawReport('node-b', { ready: false, checks: [{ id: 'dev.kvm', status: 'fail', message: hostile }] }),
      rawReport('node-c'),
    ],
  });
}

describe('aggregator HTTP API', () => {
  it('answers 503 not-synced on every API route before the first report, and /readyz says why', async () => {
    const app = await serve(new FakeSource(null, statusOf({ ready: false, synced: false, healthy: false, reason: 'not synced yet: nodes' })));
    for (const url of ['/api/v1/gate', '/api/v1/summary', '/api/v1/nodes', '/api/v1/nodes/node-a']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(503);
      const body = errorResponseSchema.parse(response.json());
      expect(body.error).toBe('not-synced');
      expect(body.message).toContain('not synced yet: nodes');
    }
    const readyz = await app.inject({ url: '/readyz' });
    expect(readyz.statusCode).toBe(503);
    expect(readyz.body).toContain('not synced yet: nodes');
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('serves the gate report, matching its schema exactly', async () => {
    const source = new FakeSource(latestOf(failingCluster()));
    const app = await serve(source);
    const response = await app.inject({ url: '/api/v1/gate' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = gateResponseSchema.parse(response.json());
    // Serialisation through the response schema loses nothing the report holds.
    expect({ ...body, aggregator: undefined }).toEqual({
      apiVersion: 'virtgate.io/v1alpha1',
      kind: 'GateReport',
      ...JSON.parse(JSON.stringify(source.report?.result)),
      aggregator: undefined,
    });
    expect(body.result).toBe('fail');
    expect(body.checks.find((check) => check.id === 'nodes.runtime')?.evidence).toMatchObject({ unsupported: ['node-c (docker://24.0.7)'] });
    expect(body.aggregator.ready).toBe(true);
  });

  it('sends the very bytes that serialising the whole response through its schema gives, result after result', async () => {
    const source = new FakeSource(latestOf(failingCluster()));
    const app = await serve(source);
    // The reference: each response built whole and serialised by fastify through its response schema.
    const reference = Fastify({ logger: false });
    apps.push(reference);
    reference.get('/gate', { schema: { response: { 200: jsonSchema(gateResponseSchema) } } }, async () => ({
      ...typeMeta(DOCUMENT_KINDS.apiGate),
      ...source.report?.result,
      aggregator: source.status(),
    }));
    reference.get<{ Querystring: { state?: string } }>('/nodes', { schema: { response: { 200: jsonSchema(nodesResponseSchema) } } }, async (request) => {
      const gateResult = source.report?.result;
      const state = request.query.state ?? null;
      const nodes = gateResult?.readiness.nodes.filter((node) => state === null || node.state === state);
      return { ...typeMeta(DOCUMENT_KINDS.apiNodes), evaluatedAt: gateResult?.evaluatedAt, total: gateResult?.readiness.total, counts: gateResult?.readiness.counts, state, nodes, aggregator: source.status() };
    });
    await reference.ready();
    const check = async () => {
      for (const [url, expected] of [
        ['/api/v1/gate', '/gate'],
        ['/api/v1/nodes', '/nodes'],
        ['/api/v1/nodes?state=not-ready', '/nodes?state=not-ready'],
        ['/api/v1/nodes?state=ready', '/nodes?state=ready'],
      ] as const) {
        const served = await app.inject({ url });
        expect(served.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(served.headers['content-length']).toBe(String(served.rawPayload.length));
        expect(served.headers['transfer-encoding']).toBeUndefined();
        expect(served.body, url).toBe((await reference.inject({ url: expected })).body);
      }
    };
    await check();
    // The status is live: it changes between requests for the same report.
    source.state = statusOf({ reportAgeSeconds: 42, reason: `hostile "quote" \\ ${hostile}` });
    await check();
    // A new report replaces the cached bytes.
    source.report = latestOf(healthyCluster());
    await check();
    expect(gateResponseSchema.parse((await app.inject({ url: '/api/v1/gate' })).json()).result).toBe('pass');
  });

  it('sends a node list of several chunks (gate-bytes.ts) as the very bytes of the whole document', async () => {
    // 7,001 nodes: three chunks of the node list and a short last one; hostile text in reasons and orphans.
    const names = Array.from({ length: 7_001 }, (_, i) => `node-${String(i).padStart(5, '0')}`);
    const source = new FakeSource(
      latestOf(
        healthyCluster({
          nodes: names.map((name) => rawNode(name)),
          nodeValidations: [
            ...names.map((name, i) => (i % 97 === 0 ? rawReport(name, { ready: false, checks: [{ id: 'dev.kvm', status: 'fail', message: `${hostile} "nodes":[] ${i}` }] }) : rawReport(name))),
            rawReport('"nodes":[]'),
          ],
        }),
      ),
    );
    const app = await serve(source);
    const reference = Fastify({ logger: false });
    apps.push(reference);
    reference.get('/gate', { schema: { response: { 200: jsonSchema(gateResponseSchema) } } }, async () => ({ ...typeMeta(DOCUMENT_KINDS.apiGate), ...source.report?.result, aggregator: source.status() }));
    await reference.ready();
    const served = await app.inject({ url: '/api/v1/gate' });
    expect(served.body.length).toBeGreaterThan(2_000_000);
    expect(served.body).toBe((await reference.inject({ url: '/gate' })).body);
    expect(gateResponseSchema.parse(served.json()).readiness.nodes).toHaveLength(7_001);
  });

  it('summarises: counts, the checks that did not pass worst first, no node list', async () => {
    const app = await serve(new FakeSource(latestOf(failingCluster())));
    const body = summaryResponseSchema.parse((await app.inject({ url: '/api/v1/summary' })).json());
    expect(body.nodes).toEqual({ total: 3, counts: { ready: 2, emulation: 0, 'not-ready': 1, unknown: 0 }, readyRatio: 2 / 3 });
    expect(body.checks.notPassing[0]?.status).toBe('fail');
    expect(body.checks.notPassing.map((check) => check.id)).toContain('nodes.runtime');
    expect(body.checks.counts.fail + body.checks.counts.warn + body.checks.counts.unknown + body.checks.counts.pass).toBe(GATE_CHECK_IDS.length);
    expect(JSON.stringify(body)).not.toContain('failingChecks');
  });

  it('lists nodes worst first, filters by state, and rejects an unknown state', async () => {
    const app = await serve(new FakeSource(latestOf(failingCluster())));
    const all = nodesResponseSchema.parse((await app.inject({ url: '/api/v1/nodes' })).json());
    expect(all.nodes.map((node) => node.name)).toEqual(['node-b', 'node-a', 'node-c']);
    expect(all.nodes[0]?.failingChecks[0]?.message).toBe(hostile);
    const notReady = nodesResponseSchema.parse((await app.inject({ url: '/api/v1/nodes?state=not-ready' })).json());
    expect(notReady.state).toBe('not-ready');
    expect(notReady.nodes.map((node) => node.name)).toEqual(['node-b']);
    expect(notReady.total).toBe(3);
    expect((await app.inject({ url: '/api/v1/nodes?state=bogus' })).statusCode).toBe(400);
  });

  it('serves one node, and a JSON 404 for a node it does not know', async () => {
    const app = await serve(new FakeSource(latestOf(failingCluster())));
    const one = nodeResponseSchema.parse((await app.inject({ url: '/api/v1/nodes/node-b' })).json());
    expect(one.node).toMatchObject({ name: 'node-b', state: 'not-ready', tier: 'none' });
    const missing = await app.inject({ url: '/api/v1/nodes/no-such-node' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(errorResponseSchema.parse(missing.json())).toMatchObject({ error: 'not-found', message: 'no node named "no-such-node" in the latest report' });
  });

  it('drops anything not in the schema rather than leaking it', async () => {
    const source = new FakeSource(latestOf(healthyCluster()));
    const latest = source.report;
    if (!latest) throw new Error('no report');
    const node = latest.result.readiness.nodes[0];
    if (!node) throw new Error('no node');
    Object.assign(node, { secret: 'token-123' });
    const app = await serve(source);
    expect((await app.inject({ url: '/api/v1/nodes' })).body).not.toContain('token-123');
  });

  it('serves /metrics and /readyz from the source', async () => {
    const registry = new Registry();
    const app = await serve(new FakeSource(latestOf(healthyCluster()), statusOf({ ready: false, healthy: false, reason: 'watch broken: nodes (HTTP 0: connect ECONNREFUSED)' })), registry);
    const readyz = await app.inject({ url: '/readyz' });
    expect(readyz.statusCode).toBe(503);
    expect(readyz.body).toContain('watch broken: nodes');
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toContain('text/plain');
  });

  it("serves the aggregator's per-node series, kept as bytes, as the text format lines for each node, hostile names escaped", async () => {
    const quote = 'node-"q"\\x';
    const source = new FakeSource(
      latestOf(
        healthyCluster({
          nodes: [rawNode('node-a'), rawNode('node-b'), rawNode(quote)],
          nodeValidations: [rawReport('node-a', { heartbeatAt: '2026-12-02T11:59:00Z' }), rawReport('node-b', { heartbeatAt: '2026-12-02T11:59:30Z' }), rawReport(quote, { heartbeatAt: '2026-12-02T11:58:00Z' })],
        }),
      ),
    );
    const registry = createAggregatorMetrics(source);
    const app = await serve(source, registry);
    for (let scrape = 0; scrape < 2; scrape += 1) {
      const metrics = await app.inject({ url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.headers['content-type']).toBe(registry.contentType);
      // Written by hand from the heartbeats above (Unix seconds) and the text format's escaping.
      const lines = metrics.body.split('\n');
      expect(lines).toContain('virtgate_node_report_timestamp_seconds{node="node-a"} 1796212740');
      expect(lines).toContain('virtgate_node_report_timestamp_seconds{node="node-b"} 1796212770');
      expect(lines).toContain('virtgate_node_report_timestamp_seconds{node="node-\\"q\\"\\\\x"} 1796212680');
      // Three ready nodes of one CPU kind: each has the other two as targets.
      expect(lines).toContain('virtgate_node_migration_targets{node="node-a"} 2');
    }
  });

  it('serves the page and its script with a strict content security policy', async () => {
    const app = await serve(new FakeSource(latestOf(healthyCluster())));
    const page = await app.inject({ url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<script type="module" src="/app.js"></script>');
    expect(page.body).not.toMatch(/<script>(?!<)/);
    for (const url of ['/app.js', '/render.js']) {
      const script = await app.inject({ url });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/^text\/javascript/);
      expect(script.body).not.toMatch(/\.(inner|outer)HTML\s*=/);
      expect(script.body).not.toMatch(/insertAdjacentHTML\s*\(|document\.write\s*\(|\beval\s*\(|new Function\s*\(/);
    }
    expect((await app.inject({ url: '/style.css' })).statusCode).toBe(200);
  });

  it('keeps the API up when the page files are missing from a build, and says so on /', async () => {
    const warnings: string[] = [];
    const app = buildHttp(new FakeSource(latestOf(healthyCluster())), new Registry(), { pageDirectory: '/nonexistent/page', onWarning: (message) => warnings.push(message) });
    apps.push(app);
    await app.ready();
    const page = await app.inject({ url: '/' });
    expect(page.statusCode).toBe(503);
    expect(page.body).toMatch(/^the page's files are missing \(.*\/nonexistent\/page.*\); \/api\/v1 and \/metrics still work\n$/);
    expect(warnings).toHaveLength(1);
    expect((await app.inject({ url: '/api/v1/gate' })).statusCode).toBe(200);
  });

  it('has only GET routes (the aggregator is read-only)', async () => {
    const app = await serve(new FakeSource(latestOf(healthyCluster())));
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect((await app.inject({ method, url: '/api/v1/gate' })).statusCode).toBe(404);
    }
  });
});
