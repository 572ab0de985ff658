import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { GATE_CHECK_IDS, GATE_STATUSES, type GateStatus } from './gate/types.ts';
import { NODE_STATES } from './readiness/types.ts';
import { ReportAgeSeries } from './report-age-series.ts';
import type { ReportSource } from './service/types.ts';

/**
 * The aggregator's Prometheus series (docs/metrics.md; the chart's alerts and dashboard use
 * these names). Every value is read from the latest report when scraped, so a series for a node
 * or a watch that no longer exists disappears instead of going stale. Gate series are absent
 * until the first report.
 */
const STATUS_VALUE: Record<GateStatus, number> = { pass: 0, unknown: 1, warn: 1, fail: 2 };

/** An unlabelled gauge reads 0 after reset(); without a value it must be absent, not 0 ("pass"). */
function setOrAbsent(gauge: Gauge, value: number | undefined): void {
  gauge.reset();
  if (value === undefined) gauge.remove();
  else gauge.set(value);
}

/**
 * A Registry that appends the per-node report ages (report-age-series.ts), rendered without a
 * prom-client Gauge, after its own metrics, in the same text format.
 */
class AggregatorRegistry extends Registry {
  private readonly source: ReportSource;
  private readonly reportAges = new ReportAgeSeries();

  constructor(source: ReportSource) {
    super();
    this.source = source;
  }

  override async metrics(): Promise<string> {
    const text = await super.metrics();
    const nodes = this.source.latest()?.report.readiness.nodes;
    // prom-client separates metrics with a blank line and ends with a newline.
    return `${text}\n${this.reportAges.render(nodes, this.source.now().getTime())}\n`;
  }
}

export function createAggregatorMetrics(source: ReportSource): Registry {
  const registry = new AggregatorRegistry(source);
  const registers = [registry];
  const latest = () => source.latest();

  new Gauge({
    name: 'virtgate_cluster_nodes',
    help: 'Nodes by readiness state (ready, emulation, not-ready, unknown).',
    labelNames: ['state'],
    registers,
    collect() {
      this.reset();
      const report = latest()?.report;
      if (!report) return;
      for (const state of NODE_STATES) this.set({ state }, report.readiness.counts[state]);
    },
  });

  new Gauge({
    name: 'virtgate_cluster_ready_ratio',
    help: 'Nodes that can take VMs (ready or emulation) over all nodes; 0 without nodes.',
    registers,
    collect() {
      setOrAbsent(this, latest()?.report.readiness.readyRatio);
    },
  });

  new Gauge({
    name: 'virtgate_gate_check',
    help: 'Each gate check: 1 for its current status, 0 for the other statuses.',
    labelNames: ['check', 'status'],
    registers,
    collect() {
      this.reset();
      const report = latest()?.report;
      if (!report) return;
      for (const id of GATE_CHECK_IDS) {
        const current = report.checks.find((check) => check.id === id)?.status;
        for (const status of GATE_STATUSES) this.set({ check: id, status }, status === current ? 1 : 0);
      }
    },
  });

  new Gauge({
    name: 'virtgate_gate_result',
    help: 'The gate result: 1 for the current status, 0 for the others.',
    labelNames: ['status'],
    registers,
    collect() {
      this.reset();
      const report = latest()?.report;
      if (!report) return;
      for (const status of GATE_STATUSES) this.set({ status }, status === report.result ? 1 : 0);
    },
  });

  new Gauge({
    name: 'virtgate_gate_status',
    help: 'The gate result as a number: 0 pass, 1 warn or unknown, 2 fail.',
    registers,
    collect() {
      const report = latest()?.report;
      setOrAbsent(this, report ? STATUS_VALUE[report.result] : undefined);
    },
  });

  new Gauge({
    name: 'virtgate_migration_stranded_nodes',
    help: 'Ready nodes without a live-migration target (nodes.migration-pairs); absent before the first report.',
    registers,
    collect() {
      const nodes = latest()?.report.readiness.nodes;
      setOrAbsent(this, nodes ? nodes.filter((node) => node.migrationTargets === 0).length : undefined);
    },
  });

  new Gauge({
    name: 'virtgate_node_migration_targets',
    help: "Per ready node: how many other ready nodes can take its VMs by live migration; 0 means the node is stranded.",
    labelNames: ['node'],
    registers,
    collect() {
      this.reset();
      for (const node of latest()?.report.readiness.nodes ?? []) {
        if (node.migrationTargets !== null) this.set({ node: node.name }, node.migrationTargets);
      }
    },
  });

  new Gauge({
    name: 'virtgate_kubernetes_eol_days',
    help: "Days until the API server's Kubernetes minor reaches end of life (negative when past); absent when unknown.",
    registers,
    collect() {
      const check = latest()?.report.checks.find((entry) => entry.id === 'tuple.kubernetes-eol');
      const daysLeft = check?.evidence.daysLeft;
      setOrAbsent(this, typeof daysLeft === 'number' && Number.isFinite(daysLeft) ? daysLeft : undefined);
    },
  });

  new Gauge({
    name: 'virtgate_aggregator_last_sync_timestamp_seconds',
    help: 'When the report was last recomputed while every watch was in sync (Unix seconds); absent before the first.',
    registers,
    collect() {
      const at = source.status().lastInSyncAt;
      setOrAbsent(this, at === null ? undefined : Date.parse(at) / 1000);
    },
  });

  new Gauge({
    name: 'virtgate_aggregator_watch_healthy',
    help: '1 while a watch is synced and unbroken, 0 otherwise; one series per watched resource (KubeVirt and CDI objects only while their CRDs exist).',
    labelNames: ['kind'],
    registers,
    collect() {
      this.reset();
      for (const watch of source.status().watches) this.set({ kind: watch.kind }, watch.healthy ? 1 : 0);
    },
  });

  new Counter({
    name: 'virtgate_aggregator_lists_total',
    help: 'Full LISTs per watched resource: one at start, then only after 410 Gone, a stale watch or an error.',
    labelNames: ['kind'],
    registers,
    collect() {
      this.reset();
      for (const watch of source.status().watches) this.inc({ kind: watch.kind }, watch.lists);
    },
  });

  new Gauge({
    name: 'virtgate_aggregator_recompute_seconds',
    help: 'How long the last gate recompute took.',
    registers,
    collect() {
      const last = latest();
      setOrAbsent(this, last ? last.durationMs / 1000 : undefined);
    },
  });

  // process_resident_memory_bytes and friends: the memory budget is part of the contract.
  collectDefaultMetrics({ register: registry });
  return registry;
}
