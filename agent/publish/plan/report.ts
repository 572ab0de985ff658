import type { V1Node } from '@kubernetes/client-node';
import type { Inventory } from '../../../core/inventory/schema.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_KIND, type NodeKeys } from '../../../core/kube/names.ts';
import type { NodeValidation, NodeValidationStatus } from '../../../core/report/schema.ts';
import { buildReport } from '../../../core/report/build.ts';
import { changedFields, statusContent } from '../../desired/report.ts';
import { type StatusOperation, statusPatch } from '../../desired/status-patch.ts';
import type { HeartbeatDue } from '../../heartbeat.ts';
import type { Decision } from '../decision.ts';
import type { PublishRead } from '../read.ts';
import type { NodeObjectPlan } from './node-object.ts';

export interface ReportSettings {
  keys: NodeKeys;
  agentVersion: string;
  /** The hardware inventory (core/inventory), collected once at start before the first probe. */
  inventory?: Inventory;
}

export interface ReportPlan {
  /** The report to create first, when none exists. */
  create: NodeValidation | undefined;
  /**
   * The status write, whole (a field that is news changed: every key of the agent's) or only the
   * timestamps (heartbeat), and the JSON Patch that writes it, key by key (desired/status-patch.ts).
   */
  write: { fields: Partial<NodeValidationStatus>; whole: boolean; operations: StatusOperation[] } | undefined;
  /** The fields that are news (for the log). */
  changed: string[];
  /** When the report was last refreshed once this publish is written. */
  heartbeatAt: Date | undefined;
}

/** A new report: metadata and spec; the status follows through the status subresource. */
function newReport(node: V1Node, keys: NodeKeys): NodeValidation {
  const name = node.metadata?.name ?? '';
  return {
    apiVersion: `${API_GROUP}/${API_VERSION}`,
    kind: NODE_VALIDATION_KIND,
    metadata: {
      name,
      labels: { [`${keys.prefix}/node`]: name },
      // Garbage-collected with its Node.
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata?.uid ?? '' }],
    },
    spec: { nodeName: name },
  };
}

/** The NodeValidation writes: created when missing, its status whole when a field is news, else only its timestamps when due. */
export function planReport(decision: Decision, nodePlan: NodeObjectPlan, read: PublishRead, settings: ReportSettings, heartbeat: HeartbeatDue, now: Date): ReportPlan {
  const outcome = decision.outcome;
  const create = read.report ? undefined : newReport(read.node, settings.keys);
  const published = read.report?.status;
  const generation = read.report?.metadata.generation ?? 1;
  const stamp = now.toISOString();
  const probedAt = outcome.probedAt.toISOString();
  const verdict = buildReport({ verdict: outcome.verdict, effective: decision.effective, facts: outcome.facts, agentVersion: settings.agentVersion, taint: nodePlan.taint, ...(settings.inventory ? { inventory: settings.inventory } : {}) });
  const content = statusContent(verdict, nodePlan.desired.condition, generation, published, now);
  const lastHeartbeat = published?.heartbeatAt ? new Date(published.heartbeatAt) : undefined;
  const changed = changedFields(content, published);
  const write = (fields: Partial<NodeValidationStatus>, whole: boolean) => ({ fields, whole, operations: statusPatch(fields, whole, published !== undefined) });
  if (changed.length === 0) {
    if (!heartbeat.report) return { create, write: undefined, changed, heartbeatAt: lastHeartbeat };
    return { create, write: write({ probedAt, heartbeatAt: stamp }, false), changed, heartbeatAt: now };
  }
  const transitioned = published?.ready !== content.ready || published?.tier !== content.tier;
  const lastTransitionAt = transitioned || !published?.lastTransitionAt ? stamp : published.lastTransitionAt;
  return { create, write: write({ ...content, probedAt, heartbeatAt: stamp, lastTransitionAt }, true), changed, heartbeatAt: now };
}
