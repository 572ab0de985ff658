import type { NodeReadiness } from '../documents/readiness.ts';
import type { NodeModel } from '../model/node.ts';
import type { NodeReport } from '../model/report.ts';

// The readiness documents are zod schemas in aggregator/documents/readiness.ts; their names stay importable from here.
export { type ClusterReadiness, NODE_STATES, type NodeReadiness, type NodeState, UNKNOWN_CAUSES, type UnknownCause } from '../documents/readiness.ts';

/** A node with what the gate checks need: its readiness, the Node, and its attributed report. */
export interface AssessedNode {
  node: NodeModel;
  readiness: NodeReadiness;
  /** The node's own valid report (fresh or stale); null when missing, invalid or forged. */
  report: NodeReport | null;
}
