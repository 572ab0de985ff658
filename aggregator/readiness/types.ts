import type { CheckStatus } from '../../core/checks/result.ts';
import type { Tier } from '../../core/checks/verdict.ts';
import type { Inventory } from '../../core/inventory/schema.ts';
import type { NodeModel } from '../model/node.ts';
import type { NodeReport } from '../model/report.ts';

/**
 * - ready: a fresh, valid report says ready at tier hardware;
 * - emulation: ready at tier emulation (the agent's policy allowed it; KubeVirt needs useEmulation);
 * - not-ready: a fresh, valid report says not ready (or the kubelet says the node is NotReady);
 * - unknown: no report we can use: missing, stale, invalid, or forged.
 */
export const NODE_STATES = ['ready', 'emulation', 'not-ready', 'unknown'] as const;
export type NodeState = (typeof NODE_STATES)[number];

/** Why a node is `unknown`. */
export const UNKNOWN_CAUSES = ['missing', 'stale', 'invalid', 'forged', 'duplicate'] as const;
export type UnknownCause = (typeof UNKNOWN_CAUSES)[number];

/** Per-node readiness, JSON-serialisable (served at /api/v1/nodes). */
export interface NodeReadiness {
  name: string;
  state: NodeState;
  /** One line: why this state. */
  reason: string;
  unknownCause: UnknownCause | null;
  /** From the node's own report, even a stale one (shown as last known); null without one. */
  tier: Tier | null;
  cpuVendor: string | null;
  /** The report's kernel major.minor, else the kubelet's kernelVersion. */
  kernel: string | null;
  containerRuntime: string | null;
  heartbeatAt: string | null;
  /** Seconds between the heartbeat and the evaluation time (negative: in the future). */
  heartbeatAgeSeconds: number | null;
  agentVersion: string | null;
  /** The report's checks that did not pass (warn, fail, error), messages clipped. */
  failingChecks: Array<{ id: string; status: CheckStatus; message: string }>;
  /** How many other ready nodes can take this node's VMs by live migration (gate/migration.ts); null when it is not ready. */
  migrationTargets: number | null;
  /** The node's hardware inventory from its report (systeminformation); null when it has none. */
  inventory: Inventory | null;
}

/** Counts and ratios over all nodes, plus the nodes worst first. */
export interface ClusterReadiness {
  total: number;
  counts: Record<NodeState, number>;
  /** Nodes that can take VMs (ready + emulation) over all nodes; 0 when there are none. */
  readyRatio: number;
  /** Worst first (see sort.ts). */
  nodes: NodeReadiness[];
  /** Objects that were not attributed to any node. */
  ignored: {
    /** Node objects without a usable name, and repeated Node names. */
    unnamedNodes: number;
    duplicateNodes: number;
    /** NodeValidations named after no existing node (first few names; clipped). */
    orphanReports: string[];
    orphanReportCount: number;
    /** NodeValidations whose name could not even be read. */
    unnamedReports: number;
  };
}

/** A node with what the gate checks need: its readiness, the Node, and its attributed report. */
export interface AssessedNode {
  node: NodeModel;
  readiness: NodeReadiness;
  /** The node's own valid report (fresh or stale); null when missing, invalid or forged. */
  report: NodeReport | null;
}
