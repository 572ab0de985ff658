import { Gauge, Registry } from 'prom-client';
import type { GateResult } from './documents/gate.ts';

/**
 * The per-node series (`virtgate_node_report_timestamp_seconds`, `virtgate_node_migration_targets`):
 * two lines per node, so at 5,000 nodes most of a scrape. They depend only on the report, so
 * prom-client renders them once per report, in a registry of their own, and the text is kept, as
 * UTF-8 bytes, until the next report replaces it: a scrape between two recomputes streams those
 * bytes (aggregator/metrics.ts) instead of formatting 10,000 lines again (that formatting, and its
 * garbage, was what put /metrics over 50 ms and the RSS over 256 MiB at 5,000 nodes), and instead
 * of encoding a string again (at 100,000 nodes, 214 ms at p95 as a string, 70.7 ms streamed). The gauges are
 * emptied after rendering, so only the bytes stay in memory. Same exposition as before: the same
 * prom-client formatter.
 */
export class PerNodeSeries {
  private readonly registry = new Registry();
  private readonly migrationTargets: Gauge<'node'>;
  private readonly reportTimestamp: Gauge<'node'>;
  private renderedFor: GateResult | null | undefined;
  private rendered: Promise<Buffer> = Promise.resolve(Buffer.alloc(0));

  constructor() {
    const registers = [this.registry];
    this.migrationTargets = new Gauge({
      name: 'virtgate_node_migration_targets',
      help: 'Per ready node: how many other ready nodes can take its VMs by live migration; 0 means the node is stranded.',
      labelNames: ['node'],
      registers,
    });
    this.reportTimestamp = new Gauge({
      name: 'virtgate_node_report_timestamp_seconds',
      help: "When each node's NodeValidation heartbeat was written (status.heartbeatAt, Unix seconds); absent for nodes without a valid report.",
      labelNames: ['node'],
      registers,
    });
  }

  /** The exposition of both gauges for `report`, as UTF-8 bytes (none before the first report). */
  bytes(report: GateResult | null): Promise<Buffer> {
    if (report !== this.renderedFor) {
      this.renderedFor = report;
      this.rendered = this.render(report);
    }
    return this.rendered;
  }

  private async render(report: GateResult | null): Promise<Buffer> {
    for (const node of report?.readiness.nodes ?? []) {
      if (node.migrationTargets !== null) this.migrationTargets.set({ node: node.name }, node.migrationTargets);
      const heartbeat = node.heartbeatAt === null ? Number.NaN : Date.parse(node.heartbeatAt);
      if (Number.isFinite(heartbeat)) this.reportTimestamp.set({ node: node.name }, heartbeat / 1000);
    }
    // prom-client takes the gauges' values synchronously when metrics() is called (they have no
    // collect function), so they can be emptied at once, before another report fills them.
    const text = this.registry.metrics();
    this.migrationTargets.reset();
    this.reportTimestamp.reset();
    return Buffer.from(await text);
  }
}
