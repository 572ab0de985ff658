import type { AgentMetrics } from '../../metrics.ts';
import type { Exporter } from '../exporter.ts';

/** The published verdict and the guard's refusal as Prometheus series, once a publish succeeded. */
export function metricsExporter(metrics: AgentMetrics, clock: () => Date): Exporter {
  return {
    async apply({ effective, taintRefused }) {
      metrics.recordPublished(effective, taintRefused !== undefined, clock());
    },
  };
}
