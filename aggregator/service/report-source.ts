import type { AggregatorStatus } from '../documents/aggregator-status.ts';
import type { CanarySummary } from '../documents/canary.ts';
import type { GateResult } from '../documents/gate.ts';

/** The latest gate evaluation: the HTTP handlers serve it without recomputing. */
export interface LatestReport {
  report: GateResult;
  /** The clock at recompute time: the date the gate was evaluated on. */
  computedAt: Date;
  durationMs: number;
  /** The VM canary's results per node class, from the same objects (aggregator/canary/). */
  canary: CanarySummary;
}

/** What the HTTP routes and the metrics read. */
export interface ReportSource {
  latest(): LatestReport | null;
  status(): AggregatorStatus;
  /** The aggregator's clock (injected in tests). */
  now(): Date;
}
