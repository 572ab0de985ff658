/**
 * The gate fuzz (aggregator/gate/gate.fuzz.test.ts) proves the gate never throws on junk. This one
 * goes on from there, through what the aggregator serves: arbitrary clusters — names and text made
 * of any UTF-16 (lone surrogates, control characters, markup, URL syntax), odd states, huge
 * strings — are evaluated and served by the real HTTP layer (fastify, app.inject()). Every route
 * must answer with JSON that matches its schema, every node of the report must be reachable at
 * /api/v1/nodes/:name under its own name, and /metrics must stay valid Prometheus text.
 */
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttp } from '../../aggregator/http/server.ts';
import { gateResponseSchema, nodeResponseSchema, nodesResponseSchema, summaryResponseSchema } from '../../aggregator/documents/api.ts';
import { createAggregatorMetrics } from '../../aggregator/metrics.ts';
import type { ClusterSnapshot } from '../../aggregator/model/snapshot.ts';
import { listed, NOW, rawCdi, rawKubeVirt, rawNode, rawReport } from '../lab/aggregator/cluster-fixtures.ts';
import { FakeSource, latestOf } from '../lab/aggregator/gate-source.ts';
import { fuzzRuns } from '../lab/support/fuzz-runs.ts';
import { Fault } from './ledger.ts';

const RUNS = fuzzRuns(60);
const HEALTHY_NODE = 'census-healthy-node';
const source = new FakeSource(null);
const app = buildHttp(source, createAggregatorMetrics(source) as Registry);

/** Text from anywhere: any UTF-16 code units, markup, URL syntax, control characters, a lot of it. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('<script>alert(1)</script>', '\ud800', '\u0000\u001b[2J', '%2F..%2F', 'a/b?c=d#e', '\u202egnp.exe', '', ' ', '"}]\n# HELP x', 'x'.repeat(20_000)),
);
/** Node names: mostly valid DNS names (so they are kept), sometimes not. */
const name = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,30}[a-z0-9])?$/) },
  { weight: 1, arbitrary: text },
);
const status = fc.constantFrom('pass', 'warn', 'fail', 'skip', 'error', 'bogus');

const node = fc.record({ name, runtime: text, kernel: text, ready: fc.constantFrom('true', 'false', 'maybe'), kubelet: fc.constantFrom('True', 'False', 'Unknown') }).map((n) =>
  rawNode(n.name, { runtime: n.runtime, kernel: n.kernel, kubeletReady: n.kubelet, labels: { 'virtgate.io/ready': n.ready } }),
);
const report = fc
  .record({
    name,
    ready: fc.boolean(),
    tier: fc.constantFrom('hardware', 'emulation', 'none'),
    checks: fc.array(fc.record({ id: text, status, message: text }), { maxLength: 6 }),
    age: fc.integer({ min: -100_000, max: 100_000 }),
    foreignOwner: fc.boolean(),
  })
  .map((r) =>
    rawReport(r.name, {
      ready: r.ready,
      tier: r.tier as 'hardware' | 'emulation' | 'none',
      checks: r.checks,
      heartbeatAt: new Date(NOW.getTime() - r.age * 1000).toISOString(),
      ...(r.foreignOwner ? { ownerName: `${r.name}-other` } : {}),
    }),
  );
/** A cluster whose nodes mostly have their own reports, with junk around them. */
const cluster: fc.Arbitrary<ClusterSnapshot> = fc
  .record({
    nodes: fc.array(node, { maxLength: 8 }),
    extraReports: fc.array(report, { maxLength: 3 }),
    reportFor: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    phase: text,
    version: fc.oneof(text, fc.constantFrom('v1.9.0', 'v1.7.2', null)),
    selector: fc.dictionary(text, text, { maxKeys: 3 }),
    server: fc.oneof(text, fc.constantFrom('v1.36.3', 'v1.35.2-eks-4f2a9b1')),
  })
  .map((c) => ({
    serverGitVersion: c.server,
    // One healthy node in every cluster: the census checks the junk around it never moves it.
    nodes: [...c.nodes, rawNode(HEALTHY_NODE, { labels: { 'virtgate.io/ready': 'true' } })],
    nodeValidations: [
      ...c.nodes.filter((_, index) => c.reportFor[index]).map((n) => rawReport(String((n.metadata as { name: unknown }).name))),
      rawReport(HEALTHY_NODE),
      ...c.extraReports,
    ],
    kubevirt: listed(rawKubeVirt({ phase: c.phase, version: c.version, nodePlacement: { nodeSelector: c.selector } })),
    cdi: listed(rawCdi()),
  }));

// Values as Prometheus parses them (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan").
const PROMETHEUS_LINE = /^(#.*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*",?)*\})? (-?[0-9.]+(e[+-]?[0-9]+)?|nan|[+-]inf))$/i;

async function get(url: string) {
  const response = await app.inject({ url });
  return { status: response.statusCode, body: response.body, type: String(response.headers['content-type'] ?? '') };
}

beforeAll(async () => {
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('arbitrary clusters through the aggregator HTTP layer', () => {
  it('every route answers with schema-valid JSON, every node is reachable by name, /metrics stays valid', async () => {
    const fault = new Fault('fuzz-http', `${RUNS} arbitrary clusters through app.inject()`);
    // Each run is an input, not an object: the generated clusters live only in this process.
    fault.touchesNoObjects('generated clusters served through app.inject(), no API server; the healthy node\'s state in each run is asserted, and a moved one fails the row');
    let healthyChecked = 0;
    let healthyMoved = 0;
    try {
      await fc.assert(
        fc.asyncProperty(cluster, async (snapshot) => {
          fault.tried();
          source.report = latestOf(snapshot, NOW);
          const gate = await get('/api/v1/gate');
          expect(gate.status).toBe(200);
          expect(gate.type).toMatch(/^application\/json/);
          const parsed = gateResponseSchema.parse(JSON.parse(gate.body));
          summaryResponseSchema.parse(JSON.parse((await get('/api/v1/summary')).body));
          const nodes = nodesResponseSchema.parse(JSON.parse((await get('/api/v1/nodes')).body));
          expect(nodes.nodes.map((n) => n.name)).toEqual(parsed.readiness.nodes.map((n) => n.name));
          // The census: the healthy node is ready whatever junk surrounds it — unless a generated
          // name collides with it (two nodes or reports claim it), which the generator can do.
          const named = (objects: readonly unknown[]) => objects.filter((o) => (o as { metadata?: { name?: unknown } }).metadata?.name === HEALTHY_NODE).length;
          if (named(snapshot.nodes) === 1 && named(snapshot.nodeValidations) === 1) {
            healthyChecked += 1;
            const healthy = nodes.nodes.find((n) => n.name === HEALTHY_NODE);
            if (healthy?.state !== 'ready') healthyMoved += 1;
            expect(healthy?.state, JSON.stringify(healthy)).toBe('ready');
          }
          for (const state of ['ready', 'emulation', 'not-ready', 'unknown']) {
            const filtered = await get(`/api/v1/nodes?state=${state}`);
            expect(filtered.status).toBe(200);
            expect(nodesResponseSchema.parse(JSON.parse(filtered.body)).nodes.every((n) => n.state === state)).toBe(true);
          }
          // A name with a lone surrogate cannot be put in a URL at all (the API server never admits one).
          for (const entry of parsed.readiness.nodes.filter((n) => n.name.isWellFormed())) {
            const one = await get(`/api/v1/nodes/${encodeURIComponent(entry.name)}`);
            expect(one.status, `GET /api/v1/nodes/${JSON.stringify(entry.name)}`).toBe(200);
            expect(nodeResponseSchema.parse(JSON.parse(one.body)).node.name).toBe(entry.name);
          }
          const metrics = await get('/metrics');
          expect(metrics.status).toBe(200);
          const bad = metrics.body.split('\n').filter((line) => line !== '' && !PROMETHEUS_LINE.test(line));
          expect(bad).toEqual([]);
          expect((await get('/')).status).toBe(200);
        }),
        { numRuns: RUNS },
      );
      fault.handled();
    } finally {
      fault.detail(`the healthy node unambiguous in ${healthyChecked} runs, its state moved in ${healthyMoved}`);
      fault.finish();
    }
  });
});
