import type { AgentMetrics } from '../metrics.ts';
import type { Exporter, NodeStatus } from './exporter.ts';

/** The published verdict and the guard's refusal as Prometheus series, once a publish succeeded. */
export class MetricsExporter implements Exporter {
  private readonly metrics: AgentMetrics;
  private readonly clock: () => Date;

  constructor(metrics: AgentMetrics, clock: () => Date) {
    this.metrics = metrics;
    this.clock = clock;
  }

  async export({ effective, taintRefused }: NodeStatus): Promise<void> {
    this.metrics.recordPublished(effective, taintRefused !== undefined, this.clock());
  }
}
