import { Gauge, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { GATE_CHECK_IDS, GATE_STATUSES } from './gate/types.ts';
import { createAggregatorMetrics } from './metrics.ts';
import { REPORT_AGE_HELP, REPORT_AGE_NAME } from './report-age-series.ts';
import { healthyCluster, NOW, rawNode, rawReport, secondsAgo } from '../test/fixtures/aggregator/cluster-fixtures.ts';
import { FakeSource, latestOf, statusOf } from '../test/fixtures/aggregator/report-source.ts';

/** Value of one series in Prometheus text, e.g. value(text, 'virtgate_gate_result', { status: 'pass' }). */
function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const want = Object.entries(labels).map(([key, v]) => `${key}="${v}"`);
    const labelPart = line.slice(name.length, line.lastIndexOf(' '));
    if (want.every((pair) => labelPart.includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

const series = (text: string, name: string) => text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));

describe('aggregator metrics', () => {
  it('render the documented series for a passing cluster', async () => {
    const source = new FakeSource(latestOf(healthyCluster()));
    const text = await createAggregatorMetrics(source).metrics();
    expect(value(text, 'virtgate_cluster_nodes', { state: 'ready' })).toBe(3);
    expect(value(text, 'virtgate_cluster_nodes', { state: 'not-ready' })).toBe(0);
    expect(value(text, 'virtgate_cluster_ready_ratio')).toBe(1);
    expect(value(text, 'virtgate_gate_result', { status: 'pass' })).toBe(1);
    expect(value(text, 'virtgate_gate_result', { status: 'fail' })).toBe(0);
    expect(value(text, 'virtgate_gate_status')).toBe(0);
    // 1.36 reaches end of life on 2027-06-28: 208 days after 2026-12-02.
    expect(value(text, 'virtgate_kubernetes_eol_days')).toBe(208);
    expect(series(text, 'virtgate_gate_check')).toHaveLength(GATE_CHECK_IDS.length * GATE_STATUSES.length);
    for (const check of GATE_CHECK_IDS) {
      expect(value(text, 'virtgate_gate_check', { check, status: 'pass' })).toBe(1);
      expect(value(text, 'virtgate_gate_check', { check, status: 'fail' })).toBe(0);
    }
    expect(value(text, 'virtgate_report_age_seconds', { node: 'node-a' })).toBe(60);
    expect(value(text, 'virtgate_aggregator_watch_healthy', { kind: 'nodes' })).toBe(1);
    expect(value(text, 'virtgate_aggregator_last_sync_timestamp_seconds')).toBe(NOW.getTime() / 1000);
    expect(value(text, 'virtgate_aggregator_lists_total', { kind: 'nodevalidations' })).toBe(1);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('expose stranded nodes: a total and each ready node\'s live-migration target count', async () => {
    const healthy = await createAggregatorMetrics(new FakeSource(latestOf(healthyCluster()))).metrics();
    expect(value(healthy, 'virtgate_migration_stranded_nodes')).toBe(0);
    expect(value(healthy, 'virtgate_node_migration_targets', { node: 'node-a' })).toBe(2);
    const amd = rawReport('node-amd', { vendor: 'amd' });
    const snapshot = healthyCluster({
      nodes: [rawNode('node-a'), rawNode('node-b'), rawNode('node-amd'), rawNode('node-down')],
      nodeValidations: [rawReport('node-a'), rawReport('node-b'), amd, rawReport('node-down', { ready: false })],
    });
    const text = await createAggregatorMetrics(new FakeSource(latestOf(snapshot))).metrics();
    expect(value(text, 'virtgate_migration_stranded_nodes')).toBe(1);
    expect(value(text, 'virtgate_node_migration_targets', { node: 'node-amd' })).toBe(0);
    expect(value(text, 'virtgate_node_migration_targets', { node: 'node-a' })).toBe(1);
    expect(series(text, 'virtgate_node_migration_targets')).toHaveLength(3);
  });

  it('say fail as 2, one series per check status, and age nodes at scrape time', async () => {
    const snapshot = healthyCluster({
      nodes: [rawNode('node-a', { runtime: 'docker://24.0.7' }), rawNode('node-b')],
      nodeValidations: [rawReport('node-a'), rawReport('node-b', { heartbeatAt: secondsAgo(7200) })],
    });
    const source = new FakeSource(latestOf(snapshot));
    source.clock = new Date(NOW.getTime() + 30_000);
    const text = await createAggregatorMetrics(source).metrics();
    expect(value(text, 'virtgate_gate_status')).toBe(2);
    expect(value(text, 'virtgate_gate_result', { status: 'fail' })).toBe(1);
    expect(value(text, 'virtgate_gate_check', { check: 'nodes.runtime', status: 'fail' })).toBe(1);
    expect(value(text, 'virtgate_gate_check', { check: 'nodes.runtime', status: 'pass' })).toBe(0);
    expect(value(text, 'virtgate_gate_check', { check: 'nodes.reports-fresh', status: 'warn' })).toBe(1);
    expect(value(text, 'virtgate_cluster_nodes', { state: 'unknown' })).toBe(1);
    expect(value(text, 'virtgate_cluster_ready_ratio')).toBe(0.5);
    // The stale node still has a heartbeat: its age keeps growing with the clock.
    expect(value(text, 'virtgate_report_age_seconds', { node: 'node-b' })).toBe(7230);
    expect(value(text, 'virtgate_report_age_seconds', { node: 'node-a' })).toBe(90);
  });

  it('count warn and unknown as 1, and leave out EOL days when the minor is unknown', async () => {
    const source = new FakeSource(latestOf(healthyCluster({ serverGitVersion: 'v1.99.0' })));
    const text = await createAggregatorMetrics(source).metrics();
    expect(value(text, 'virtgate_gate_check', { check: 'tuple.kubernetes-eol', status: 'unknown' })).toBe(1);
    expect(series(text, 'virtgate_kubernetes_eol_days')).toEqual([]);
    expect(value(text, 'virtgate_gate_status')).toBe(2); // 1.99 is outside KubeVirt 1.9's window: fail
    const past = new FakeSource(latestOf(healthyCluster(), new Date('2027-07-01T00:00:00Z')));
    expect(value(await createAggregatorMetrics(past).metrics(), 'virtgate_kubernetes_eol_days')).toBe(-3);
  });

  it('have no gate series before the first report, and show broken watches', async () => {
    const status = statusOf({ ready: false, healthy: false, synced: false, lastInSyncAt: null });
    status.watches = status.watches.map((watch) => (watch.kind === 'nodes' ? { ...watch, healthy: false, synced: false } : watch));
    const text = await createAggregatorMetrics(new FakeSource(null, status)).metrics();
    for (const name of ['virtgate_cluster_nodes', 'virtgate_cluster_ready_ratio', 'virtgate_kubernetes_eol_days', 'virtgate_gate_check', 'virtgate_gate_result', 'virtgate_gate_status', 'virtgate_report_age_seconds', 'virtgate_migration_stranded_nodes', 'virtgate_node_migration_targets', 'virtgate_aggregator_last_sync_timestamp_seconds']) {
      expect(series(text, name)).toEqual([]);
    }
    expect(value(text, 'virtgate_aggregator_watch_healthy', { kind: 'nodes' })).toBe(0);
    expect(value(text, 'virtgate_aggregator_watch_healthy', { kind: 'nodevalidations' })).toBe(1);
  });

  it('drop the series of a node that is gone', async () => {
    const source = new FakeSource(latestOf(healthyCluster()));
    const registry = createAggregatorMetrics(source);
    expect(value(await registry.metrics(), 'virtgate_report_age_seconds', { node: 'node-c' })).toBe(60);
    source.report = latestOf(healthyCluster({ nodes: [rawNode('node-a')], nodeValidations: [rawReport('node-a')] }));
    expect(value(await registry.metrics(), 'virtgate_report_age_seconds', { node: 'node-c' })).toBeUndefined();
  });

  it('render report ages exactly as a prom-client gauge does, hostile node names included', async () => {
    const names = ['node-a', 'q"uote', 'back\\slash', 'new\nline', 'stale'];
    const snapshot = healthyCluster({
      nodes: [...names, 'no-report'].map((name) => rawNode(name)),
      nodeValidations: names.map((name) => rawReport(name, { heartbeatAt: secondsAgo(name === 'stale' ? 7200 : 59.6) })),
    });
    const source = new FakeSource(latestOf(snapshot));
    source.clock = new Date(NOW.getTime() + 1234);
    const registry = createAggregatorMetrics(source);
    // The reference: the Gauge this series used to be.
    const reference = new Registry();
    const gauge = new Gauge({ name: REPORT_AGE_NAME, help: REPORT_AGE_HELP, labelNames: ['node'], registers: [reference] });
    for (const node of source.report?.report.readiness.nodes ?? []) {
      const heartbeat = node.heartbeatAt === null ? Number.NaN : Date.parse(node.heartbeatAt);
      if (Number.isFinite(heartbeat)) gauge.set({ node: node.name }, Math.round((source.clock.getTime() - heartbeat) / 1000));
    }
    const block = (text: string) => text.split('\n\n').find((part) => part.startsWith(`# HELP ${REPORT_AGE_NAME} `))?.trimEnd();
    const expected = (await reference.metrics()).trimEnd();
    expect(expected.split('\n')).toHaveLength(2 + names.length);
    expect(block(await registry.metrics())).toBe(expected);
    // Again, with the clock moved on: the same report, new ages.
    source.clock = new Date(NOW.getTime() + 61_000);
    gauge.reset();
    for (const node of source.report?.report.readiness.nodes ?? []) {
      if (node.heartbeatAt !== null) gauge.set({ node: node.name }, Math.round((source.clock.getTime() - Date.parse(node.heartbeatAt)) / 1000));
    }
    expect(block(await registry.metrics())).toBe((await reference.metrics()).trimEnd());
    // Before any report: HELP and TYPE only, as an empty gauge.
    gauge.reset();
    expect(block(await createAggregatorMetrics(new FakeSource(null)).metrics())).toBe((await reference.metrics()).trimEnd());
    expect((await registry.metrics()).endsWith('\n')).toBe(true);
  });
});
