import { z } from 'zod';
import { CHECK_STATUSES } from '../../core/checks/outcome.ts';
import { TIERS } from '../../core/checks/tiers.ts';
import { inventorySchema } from '../../core/inventory/schema.ts';
import { CONFIDENTIAL_KINDS } from '../../core/checks/host/confidential-kinds.ts';

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

export const nodeStateSchema = z.enum(NODE_STATES);

/** Per-node readiness (served at /api/v1/nodes). */
export const nodeReadinessSchema = z.strictObject({
  name: z.string(),
  state: nodeStateSchema,
  /** One line: why this state. */
  reason: z.string(),
  unknownCause: z.enum(UNKNOWN_CAUSES).nullable(),
  /** From the node's own report, even a stale one (shown as last known); null without one. */
  tier: z.enum(TIERS).nullable(),
  cpuVendor: z.string().nullable(),
  /** The report's kernel major.minor, else the kubelet's kernelVersion. */
  kernel: z.string().nullable(),
  containerRuntime: z.string().nullable(),
  heartbeatAt: z.string().nullable(),
  /** Seconds between the heartbeat and the evaluation time (negative: in the future). */
  heartbeatAgeSeconds: z.number().nullable(),
  agentVersion: z.string().nullable(),
  /** The report's checks that did not pass (warn, fail, error), messages clipped. */
  failingChecks: z.array(z.strictObject({ id: z.string(), status: z.enum(CHECK_STATUSES), message: z.string() })),
  /** How many other ready nodes can take this node's VMs by live migration (gate/migration.ts); null when it is not ready. */
  migrationTargets: z.number().int().nullable(),
  /** The node's hardware inventory from its report (the agent reads /proc and /sys); null when it has none. */
  inventory: inventorySchema.nullable(),
  /** The confidential-guest kinds a guest of can start on this node, strongest first (its report's status.confidential); null when the report has no reading. */
  confidential: z.array(z.enum(CONFIDENTIAL_KINDS)).nullable(),
  /**
   * The report's fields that are present but could not be read (malformed, hand-edited, or from
   * another version of the schema), e.g. `status.kernel`; each is then shown as unknown. Empty
   * for a report as the agent writes it.
   */
  unreadFields: z.array(z.string()),
});
export type NodeReadiness = z.infer<typeof nodeReadinessSchema>;

export const stateCountsSchema = z.strictObject({ ready: z.number().int(), emulation: z.number().int(), 'not-ready': z.number().int(), unknown: z.number().int() });

/** Objects that were not attributed to any node. */
export const ignoredSchema = z.strictObject({
  /** Node objects without a usable name, and repeated Node names. */
  unnamedNodes: z.number().int(),
  duplicateNodes: z.number().int(),
  /** NodeValidations named after no existing node (first few names; clipped). */
  orphanReports: z.array(z.string()),
  orphanReportCount: z.number().int(),
  /** NodeValidations whose name could not even be read. */
  unnamedReports: z.number().int(),
});

/** Counts and ratios over all nodes, plus the nodes worst first. */
export const clusterReadinessSchema = z.strictObject({
  total: z.number().int(),
  counts: stateCountsSchema,
  /** Nodes that can take VMs (ready + emulation) over all nodes; 0 when there are none. */
  readyRatio: z.number(),
  /** Worst first (readiness/sort.ts). */
  nodes: z.array(nodeReadinessSchema),
  ignored: ignoredSchema,
});
export type ClusterReadiness = z.infer<typeof clusterReadinessSchema>;
