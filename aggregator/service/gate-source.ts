import type { AggregatorStatus } from '../documents/aggregator-status.ts';
import type { CanaryView } from '../canary/view.ts';
import type { GateResult } from '../documents/gate.ts';

/** The latest gate evaluation: the HTTP handlers serve it without recomputing. */
export interface LatestGate {
  result: GateResult;
  /** The clock at recompute time: the date the gate was evaluated on. */
  computedAt: Date;
  durationMs: number;
  /** The VM canary's results and their summary per node class, from the same objects, computed on first use (canary/view.ts). */
  canary: () => CanaryView;
}

/** What the HTTP routes and the metrics read. */
export interface GateSource {
  latest(): LatestGate | null;
  status(): AggregatorStatus;
  /** The aggregator's clock (injected in tests). */
  now(): Date;
}
