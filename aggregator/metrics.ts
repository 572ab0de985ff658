import { Readable } from 'node:stream';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { registerBuildInfo } from '../core/metrics/build-info.ts';
import { GATE_CHECK_IDS, GATE_STATUSES, type GateStatus } from './documents/gate.ts';
import { NODE_STATES } from './documents/readiness.ts';
import { CONFIDENTIAL_KINDS } from '../core/checks/host/confidential-kinds.ts';
import { PerNodeSeries } from './per-node-metrics.ts';
import { registerCanaryMetrics } from './canary/metrics.ts';
import type { GateSource } from './service/gate-source.ts';

/**
 * The aggregator's Prometheus series (docs/metrics.md; the chart's alerts and dashboard use
 * these names). Every value is read from the latest report when scraped, so a series for a node
 * or a watch that no longer exists disappears instead of going stale. Gate series are absent
 * until the first report. Times are Unix timestamps, never ages: Prometheus subtracts them from
 * `time()` itself, and a value does not change between two reports.
 */
const STATUS_VALUE: Record<GateStatus, number> = { pass: 0, unknown: 1, warn: 1, fail: 2 };

/** An unlabelled gauge reads 0 after reset(); without a value it must be absent, not 0 ("pass"). */
function setOrAbsent(gauge: Gauge, value: number | undefined): void {
  gauge.reset();
  if (value === undefined) gauge.remove();
  else gauge.set(value);
}

/** Recompute durations: the benchmark's target is 50 ms at 5,000 nodes. */
export const RECOMPUTE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The aggregator's registry, and the one thing it is told rather than reads: each recompute's duration. */
export class AggregatorRegistry extends Registry {
  private readonly recomputeDuration: Histogram;
  private readonly perNode: PerNodeSeries | null;
  private readonly source: GateSource;

  constructor(source: GateSource, perNodeMetrics: boolean) {
    super();
    this.source = source;
    this.perNode = perNodeMetrics ? new PerNodeSeries() : null;
    this.recomputeDuration = new Histogram({
      name: 'virtgate_aggregator_recompute_duration_seconds',
      help: 'How long each gate recompute took.',
      buckets: RECOMPUTE_BUCKETS,
      registers: [this],
    });
  }

  observeRecompute(seconds: number): void {
    this.recomputeDuration.observe(seconds);
  }

  /**
   * Every series, as /metrics sends them: the registry's own, rendered now, and the per-node ones,
   * kept as bytes per report (per-node-metrics.ts). The kept bytes are streamed as they are: a
   * copy per scrape (13 MB at 100,000 nodes) counts as external memory, and enough of it makes V8
   * collect the whole heap.
   */
  async exposition(): Promise<string | Readable> {
    const [own, perNode] = await this.parts();
    return perNode === null ? own : Readable.from([Buffer.from(own), perNode], { objectMode: false });
  }

  /** The same exposition as text. */
  override async metrics(): Promise<string> {
    const [own, perNode] = await this.parts();
    return perNode === null ? own : own + perNode.toString();
  }

  /** The registry's own series, rendered now, and the per-node bytes of the latest report (null: off). */
  private parts(): Promise<[string, Buffer | null]> {
    return Promise.all([super.metrics(), this.perNode?.bytes(this.source.latest()?.result ?? null) ?? null]);
  }
}

/** The Unix time of a day's start (UTC), the moment a minor's end of life begins (tuple.ts judges by day). */
function dayStartSeconds(day: unknown): number | undefined {
  if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) ? ms / 1000 : undefined;
}

export interface AggregatorMetricsOptions {
  /** Whether to export the per-node series (the `--per-node-metrics` setting); on by default. */
  perNodeMetrics?: boolean;
}

export function createAggregatorMetrics(source: GateSource, options: AggregatorMetricsOptions = {}): AggregatorRegistry {
  const registry = new AggregatorRegistry(source, options.perNodeMetrics ?? true);
  const registers = [registry];
  const latest = () => source.latest();
  type LatestResult = NonNullable<ReturnType<typeof latest>>['result'];
  /** Fills a gauge from the latest report on every scrape; before the first report it has no series. */
  const fromReport = <L extends string>(fill: (gauge: Gauge<L>, gateResult: LatestResult) => void) =>
    function collect(this: Gauge<L>) {
      this.reset();
      const gateResult = latest()?.result;
      if (gateResult) fill(this, gateResult);
    };

  new Gauge({
    name: 'virtgate_cluster_nodes',
    help: 'Nodes by readiness state (ready, emulation, not-ready, unknown).',
    labelNames: ['state'],
    registers,
    collect: fromReport((gauge, gateResult) => {
      for (const state of NODE_STATES) gauge.set({ state }, gateResult.readiness.counts[state]);
    }),
  });

  new Gauge({
    name: 'virtgate_cluster_ready_ratio',
    help: 'Nodes that can take VMs (ready or emulation) over all nodes; 0 without nodes.',
    registers,
    collect() {
      setOrAbsent(this, latest()?.result.readiness.readyRatio);
    },
  });

  new Gauge({
    name: 'virtgate_gate_check',
    help: 'Each gate check: 1 for its current status, 0 for the other statuses.',
    labelNames: ['check', 'status'],
    registers,
    collect: fromReport((gauge, gateResult) => {
      for (const id of GATE_CHECK_IDS) {
        const current = gateResult.checks.find((check) => check.id === id)?.status;
        for (const status of GATE_STATUSES) gauge.set({ check: id, status }, status === current ? 1 : 0);
      }
    }),
  });

  new Gauge({
    name: 'virtgate_gate_result',
    help: 'The gate result: 1 for the current status, 0 for the others.',
    labelNames: ['status'],
    registers,
    collect: fromReport((gauge, gateResult) => {
      for (const status of GATE_STATUSES) gauge.set({ status }, status === gateResult.result ? 1 : 0);
    }),
  });

  new Gauge({
    name: 'virtgate_gate_status',
    help: 'The gate result as a number: 0 pass, 1 warn or unknown, 2 fail.',
    registers,
    collect() {
      const gateResult = latest()?.result;
      setOrAbsent(this, gateResult ? STATUS_VALUE[gateResult.result] : undefined);
    },
  });

  new Gauge({
    name: 'virtgate_host_devices_available',
    help: "Per resourceName of KubeVirt's permittedHostDevices: PCI functions ready for VFIO, or mediated instances created or available, on ready nodes; 0 means no ready node can provide it. External-provider entries have no series.",
    labelNames: ['resource'],
    registers,
    collect: fromReport((gauge, gateResult) => {
      const byResource = new Map<string, number>();
      for (const entry of gateResult.hostDevices) {
        if (!entry.external) byResource.set(entry.resource, (byResource.get(entry.resource) ?? 0) + entry.devices);
      }
      for (const [resource, devices] of byResource) gauge.set({ resource }, devices);
    }),
  });

  new Gauge({
    name: 'virtgate_confidential_ready_nodes',
    help: 'Ready nodes where a confidential guest of the kind (sev, sev-es, sev-snp, tdx) can start, from their reports.',
    labelNames: ['kind'],
    registers,
    collect: fromReport((gauge, gateResult) => {
      const ready = gateResult.readiness.nodes.filter((node) => node.state === 'ready');
      for (const kind of CONFIDENTIAL_KINDS) gauge.set({ kind }, ready.filter((node) => node.confidential?.includes(kind) === true).length);
    }),
  });

  new Gauge({
    name: 'virtgate_migration_stranded_nodes',
    help: 'Ready nodes without a live-migration target (nodes.migration-pairs); absent before the first gate result.',
    registers,
    collect() {
      const nodes = latest()?.result.readiness.nodes;
      setOrAbsent(this, nodes ? nodes.filter((node) => node.migrationTargets === 0).length : undefined);
    },
  });

  new Gauge({
    name: 'virtgate_kubernetes_eol_timestamp_seconds',
    help: "When the API server's Kubernetes minor reaches end of life (the start of that day, UTC, Unix seconds); absent when the version data does not know it.",
    registers,
    collect() {
      const check = latest()?.result.checks.find((entry) => entry.id === 'tuple.kubernetes-eol');
      setOrAbsent(this, dayStartSeconds(check?.evidence.eol));
    },
  });

  new Gauge({
    name: 'virtgate_aggregator_last_sync_timestamp_seconds',
    help: 'When the gate result was last recomputed while every watch was in sync (Unix seconds); absent before the first.',
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

  registerCanaryMetrics(registers, () => latest()?.canary() ?? null);
  registerBuildInfo(registry);
  // process_resident_memory_bytes and friends: the memory budget is part of the contract.
  collectDefaultMetrics({ register: registry });
  return registry;
}
