import { describe, expect, it } from 'vitest';
import { GATE_CHECK_IDS, GATE_STATUSES } from './documents/gate.ts';
import { createAggregatorMetrics } from './metrics.ts';
import { VIRTGATE_VERSION } from '../core/package-info.ts';
import { healthyCluster, listed, NOW, rawKubeVirt, rawNode, rawReport, secondsAgo } from '../test/lab/aggregator/cluster-fixtures.ts';
import { FakeSource, latestOf, statusOf } from '../test/lab/aggregator/gate-source.ts';

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
    // 1.36 reaches end of life on 2027-06-28: from the start of that day (UTC).
    expect(value(text, 'virtgate_kubernetes_eol_timestamp_seconds')).toBe(Date.parse('2027-06-28T00:00:00Z') / 1000);
    expect(series(text, 'virtgate_gate_check')).toHaveLength(GATE_CHECK_IDS.length * GATE_STATUSES.length);
    for (const check of GATE_CHECK_IDS) {
      expect(value(text, 'virtgate_gate_check', { check, status: 'pass' })).toBe(1);
      expect(value(text, 'virtgate_gate_check', { check, status: 'fail' })).toBe(0);
    }
    expect(value(text, 'virtgate_node_report_timestamp_seconds', { node: 'node-a' })).toBe(NOW.getTime() / 1000 - 60);
    expect(value(text, 'virtgate_aggregator_watch_healthy', { kind: 'nodes' })).toBe(1);
    expect(value(text, 'virtgate_aggregator_last_sync_timestamp_seconds')).toBe(NOW.getTime() / 1000);
    expect(value(text, 'virtgate_aggregator_lists_total', { kind: 'nodevalidations' })).toBe(1);
    expect(text).toContain('process_resident_memory_bytes');
    expect(value(text, 'virtgate_build_info', { version: VIRTGATE_VERSION })).toBe(1);
    // No report carries a confidential reading here: every kind counts 0 ready nodes.
    expect(series(text, 'virtgate_confidential_ready_nodes')).toHaveLength(4);
    expect(value(text, 'virtgate_confidential_ready_nodes', { kind: 'sev-snp' })).toBe(0);
    expect(series(text, 'virtgate_build_info')).toHaveLength(1);
    // prom-client renders every series: no hand-written block (the text parses as one metric family each).
    const families = text.split('\n').filter((line) => line.startsWith('# TYPE ')).map((line) => line.split(' ')[2]);
    expect(new Set(families).size).toBe(families.length);
  });

  it('count the devices ready nodes can provide per permitted resource; none for external providers', async () => {
    const a10 = (count: number) => ({ iommu: true, functions: 9, truncated: false, pci: [{ selector: '10DE:2236', class: '030200', state: 'vfio-ready', count }], mediated: [] });
    const source = new FakeSource(
      latestOf(
        healthyCluster({
          nodeValidations: [rawReport('node-a', { hostDevices: a10(2) }), rawReport('node-b', { hostDevices: a10(1) }), rawReport('node-c')],
          kubevirt: listed(
            rawKubeVirt({
              nodePlacement: { nodeSelector: { 'virtgate.io/ready': 'true' } },
              permittedHostDevices: {
                pciHostDevices: [
                  { pciVendorSelector: '10DE:2236', resourceName: 'nvidia.com/A10' },
                  { pciVendorSelector: '10DE:2204', resourceName: 'nvidia.com/RTX3090' },
                  { pciVendorSelector: '15B3:101E', resourceName: 'mellanox.com/vf', externalResourceProvider: true },
                ],
              },
            }),
          ),
        }),
      ),
    );
    const text = await createAggregatorMetrics(source).metrics();
    expect(value(text, 'virtgate_host_devices_available', { resource: 'nvidia.com/A10' })).toBe(3);
    expect(value(text, 'virtgate_host_devices_available', { resource: 'nvidia.com/RTX3090' })).toBe(0);
    expect(series(text, 'virtgate_host_devices_available')).toHaveLength(2);
  });

  it('time each recompute in a histogram', async () => {
    const registry = createAggregatorMetrics(new FakeSource(latestOf(healthyCluster())));
    expect(value(await registry.metrics(), 'virtgate_aggregator_recompute_duration_seconds_count')).toBe(0);
    registry.observeRecompute(0.004);
    registry.observeRecompute(0.2);
    const text = await registry.metrics();
    expect(value(text, 'virtgate_aggregator_recompute_duration_seconds_count')).toBe(2);
    expect(value(text, 'virtgate_aggregator_recompute_duration_seconds_sum')).toBeCloseTo(0.204);
    expect(value(text, 'virtgate_aggregator_recompute_duration_seconds_bucket', { le: '0.005' })).toBe(1);
    expect(value(text, 'virtgate_aggregator_recompute_duration_seconds_bucket', { le: '+Inf' })).toBe(2);
    expect(series(text, 'virtgate_aggregator_recompute_seconds')).toEqual([]);
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

  it('say fail as 2, one series per check status, and give each heartbeat as a timestamp that the clock does not move', async () => {
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
    // The stale node still has a heartbeat; Prometheus computes its age as time() - timestamp.
    expect(value(text, 'virtgate_node_report_timestamp_seconds', { node: 'node-b' })).toBe(NOW.getTime() / 1000 - 7200);
    expect(value(text, 'virtgate_node_report_timestamp_seconds', { node: 'node-a' })).toBe(NOW.getTime() / 1000 - 60);
  });

  it('count warn and unknown as 1, and leave out the end of life when the minor is unknown', async () => {
    const source = new FakeSource(latestOf(healthyCluster({ serverGitVersion: 'v1.99.0' })));
    const text = await createAggregatorMetrics(source).metrics();
    expect(value(text, 'virtgate_gate_check', { check: 'tuple.kubernetes-eol', status: 'unknown' })).toBe(1);
    expect(series(text, 'virtgate_kubernetes_eol_timestamp_seconds')).toEqual([]);
    expect(value(text, 'virtgate_gate_status')).toBe(2); // 1.99 is outside KubeVirt 1.9's window: fail
    const past = new FakeSource(latestOf(healthyCluster(), new Date('2027-07-01T00:00:00Z')));
    // Past end of life: the same date, which the alert compares with time().
    expect(value(await createAggregatorMetrics(past).metrics(), 'virtgate_kubernetes_eol_timestamp_seconds')).toBe(Date.parse('2027-06-28T00:00:00Z') / 1000);
  });

  it('have no gate series before the first report, and show broken watches', async () => {
    const status = statusOf({ ready: false, healthy: false, synced: false, lastInSyncAt: null });
    status.watches = status.watches.map((watch) => (watch.kind === 'nodes' ? { ...watch, healthy: false, synced: false } : watch));
    const text = await createAggregatorMetrics(new FakeSource(null, status)).metrics();
    for (const name of ['virtgate_cluster_nodes', 'virtgate_cluster_ready_ratio', 'virtgate_kubernetes_eol_timestamp_seconds', 'virtgate_gate_check', 'virtgate_gate_result', 'virtgate_gate_status', 'virtgate_node_report_timestamp_seconds', 'virtgate_migration_stranded_nodes', 'virtgate_node_migration_targets', 'virtgate_aggregator_last_sync_timestamp_seconds']) {
      expect(series(text, name)).toEqual([]);
    }
    expect(value(text, 'virtgate_aggregator_watch_healthy', { kind: 'nodes' })).toBe(0);
    expect(value(text, 'virtgate_aggregator_watch_healthy', { kind: 'nodevalidations' })).toBe(1);
  });

  it('drop the series of a node that is gone', async () => {
    const source = new FakeSource(latestOf(healthyCluster()));
    const registry = createAggregatorMetrics(source);
    expect(value(await registry.metrics(), 'virtgate_node_report_timestamp_seconds', { node: 'node-c' })).toBe(NOW.getTime() / 1000 - 60);
    expect(value(await registry.metrics(), 'virtgate_node_migration_targets', { node: 'node-c' })).toBe(2);
    source.report = latestOf(healthyCluster({ nodes: [rawNode('node-a')], nodeValidations: [rawReport('node-a')] }));
    const text = await registry.metrics();
    expect(value(text, 'virtgate_node_report_timestamp_seconds', { node: 'node-c' })).toBeUndefined();
    expect(value(text, 'virtgate_node_migration_targets', { node: 'node-c' })).toBeUndefined();
    expect(value(text, 'virtgate_node_report_timestamp_seconds', { node: 'node-a' })).toBe(NOW.getTime() / 1000 - 60);
    source.report = null;
    expect(series(await registry.metrics(), 'virtgate_node_report_timestamp_seconds')).toEqual([]);
  });

  it('escape hostile node names the way Prometheus reads them', async () => {
    const names = ['q"uote', 'back\\slash', 'new\nline'];
    const snapshot = healthyCluster({ nodes: names.map((name) => rawNode(name)), nodeValidations: names.map((name) => rawReport(name)) });
    const text = await createAggregatorMetrics(new FakeSource(latestOf(snapshot))).metrics();
    expect(series(text, 'virtgate_node_report_timestamp_seconds').sort()).toEqual([
      `virtgate_node_report_timestamp_seconds{node="back\\\\slash"} ${NOW.getTime() / 1000 - 60}`,
      `virtgate_node_report_timestamp_seconds{node="new\\nline"} ${NOW.getTime() / 1000 - 60}`,
      `virtgate_node_report_timestamp_seconds{node="q\\"uote"} ${NOW.getTime() / 1000 - 60}`,
    ]);
  });

  it('leave the per-node series out with --no-per-node-metrics, and keep the cluster series', async () => {
    const text = await createAggregatorMetrics(new FakeSource(latestOf(healthyCluster())), { perNodeMetrics: false }).metrics();
    expect(text).not.toContain('virtgate_node_report_timestamp_seconds');
    expect(text).not.toContain('virtgate_node_migration_targets');
    expect(value(text, 'virtgate_cluster_nodes', { state: 'ready' })).toBe(3);
    expect(value(text, 'virtgate_migration_stranded_nodes')).toBe(0);
  });

  it('render the per-node series once per report, while the other series stay live', async () => {
    const source = new FakeSource(latestOf(healthyCluster()));
    const registry = createAggregatorMetrics(source);
    const first = await registry.metrics();
    // The watch status is read on every scrape; the report, and so the per-node lines, did not change.
    source.state = { ...source.state, watches: source.state.watches.map((watch) => ({ ...watch, healthy: false })) };
    const second = await registry.metrics();
    expect(value(first, 'virtgate_aggregator_watch_healthy', { kind: 'nodes' })).toBe(1);
    expect(value(second, 'virtgate_aggregator_watch_healthy', { kind: 'nodes' })).toBe(0);
    expect(series(second, 'virtgate_node_report_timestamp_seconds')).toEqual(series(first, 'virtgate_node_report_timestamp_seconds'));
    expect(series(first, 'virtgate_node_migration_targets')).toHaveLength(3);
    // A new report, a heartbeat later: its own lines, and none of the old ones left over.
    const later = new Date(NOW.getTime() + 30_000);
    source.report = latestOf(healthyCluster({ nodes: [rawNode('node-a'), rawNode('node-b')], nodeValidations: [rawReport('node-a', { heartbeatAt: later.toISOString() }), rawReport('node-b')] }), later);
    const third = await registry.metrics();
    expect(value(third, 'virtgate_node_report_timestamp_seconds', { node: 'node-a' })).toBe(later.getTime() / 1000);
    expect(series(third, 'virtgate_node_report_timestamp_seconds')).toHaveLength(2);
    // Two scrapes at once of a new report see the same text.
    source.report = latestOf(healthyCluster());
    const [x, y] = await Promise.all([registry.metrics(), registry.metrics()]);
    expect(series(x, 'virtgate_node_migration_targets')).toEqual(series(y, 'virtgate_node_migration_targets'));
    expect(series(x, 'virtgate_node_migration_targets')).toHaveLength(3);
  });
});

describe('virtgate_confidential_ready_nodes', () => {
  it('counts the ready nodes per kind from their reports; a not-ready node does not count', async () => {
    const snp = { sev: { available: true }, 'sev-es': { available: true }, 'sev-snp': { available: true }, tdx: { available: false, reason: 'the CPU shows no tdx_host_platform flag' } };
    const cluster = healthyCluster({
      nodes: ['a', 'b', 'c'].map((name) => rawNode(name, { labels: { 'virtgate.io/ready': 'true' } })),
      nodeValidations: [rawReport('a', { confidential: snp }), rawReport('b', { confidential: snp, ready: false }), rawReport('c')],
    });
    const text = await createAggregatorMetrics(new FakeSource(latestOf(cluster))).metrics();
    expect(value(text, 'virtgate_confidential_ready_nodes', { kind: 'sev-snp' })).toBe(1);
    expect(value(text, 'virtgate_confidential_ready_nodes', { kind: 'sev' })).toBe(1);
    expect(value(text, 'virtgate_confidential_ready_nodes', { kind: 'tdx' })).toBe(0);
  });
});
