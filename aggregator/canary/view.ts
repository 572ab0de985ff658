import type { CanarySummary } from '../documents/canary.ts';
import type { ClusterModel } from '../model/cluster.ts';
import { canaryResults, type NodeCanaryResult } from './results.ts';
import { summariseCanary } from './summary.ts';

/** The canary's results of one report, and their summary per class. */
export interface CanaryView {
  results: readonly NodeCanaryResult[];
  summary: CanarySummary;
}

/**
 * The canary's view of a report's objects, computed the first time something asks (GET
 * /api/v1/canary, the page, a scrape of /metrics) and kept with that report. Recomputes are far
 * more frequent than scrapes on a large cluster (every node's heartbeat is a change), and once
 * the canary has visited every node, reading and summarising 100,000 results costs about half as
 * much as the gate itself: so it is done per report served, not per recompute. The model is the
 * report's own (objects already narrowed), so the view is what the objects said at `now`.
 */
export function canaryView(model: Pick<ClusterModel, 'nodes' | 'reports'>, now: Date): () => CanaryView {
  let view: CanaryView | undefined;
  return () => {
    if (view === undefined) {
      const results = canaryResults(model);
      view = { results, summary: summariseCanary(results, now) };
    }
    return view;
  };
}
