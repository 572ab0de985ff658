import type { V1Node, V1Taint } from '@kubernetes/client-node';
import type { TaintReport } from '../../../core/report/schema.ts';
import { diff, type NodeDiff } from '../../desired/node-diff.ts';
import type { DesiredNode, NodeSettings } from '../../desired/node-state.ts';
import type { GuardedNode } from '../../desired/share-guard.ts';

/** The one merge patch for labels, the ownership annotation and, when they change, the taints. */
export interface NodePatch {
  labels?: Record<string, string | null>;
  annotations?: Record<string, string | null>;
  taints?: V1Taint[];
  resourceVersion?: string;
}

/** Labels, ownership and taints: what the Node object needs, with the share guard's answer. */
export interface NodeObjectPlan {
  desired: DesiredNode;
  changes: NodeDiff;
  /** Undefined when nothing differs: no write. */
  patch: NodePatch | undefined;
  /** The patch adds virtgate's taint: the pool must be looked at again once it is visible. */
  addsTaint: boolean;
  /** The share guard's refusal to let this node carry the taint, if it refused. */
  taintRefused: string | undefined;
  /** The taint as the Node will stand once the patch is written (one computation for the report and the agent). */
  taint: TaintReport;
}

/** Labels, ownership and taints for `node` as read (or as just written, for the re-check after tainting). */
export function planNodeObject(guarded: GuardedNode, node: V1Node, settings: NodeSettings, now: Date): NodeObjectPlan {
  const { keys, taintConfig } = settings;
  const changes = diff(guarded.desired, node, keys);
  const { add, remove } = changes.taints;
  // The Node's taints once the changes are made (added and lifted keys never overlap): an added
  // taint carries the time it was added, which the share guard ranks by.
  const replaced = new Set([...add.map((taint) => taint.key), ...remove]);
  const taints = [...(node.spec?.taints ?? []).filter((taint) => !replaced.has(taint.key)), ...add.map((taint) => ({ ...taint, timeAdded: now }))];
  const parts: NodePatch = {
    ...(Object.keys(changes.labels).length > 0 ? { labels: changes.labels } : {}),
    ...(changes.ownership !== undefined ? { annotations: { [keys.ownershipAnnotation]: changes.ownership } } : {}),
    // A list without a merge key: the resourceVersion makes a concurrent writer a 409, not a lost taint.
    ...(add.length > 0 || remove.length > 0 ? { taints, resourceVersion: node.metadata?.resourceVersion ?? '' } : {}),
  };
  const patch = Object.keys(parts).length > 0 ? parts : undefined;
  const applied = taints.some((t) => t.key === keys.notReadyTaint);
  const refused = guarded.refused;
  const taint: TaintReport = { policy: taintConfig.policy, applied, ...(refused ? { refused } : {}) };
  return { desired: guarded.desired, changes, patch, addsTaint: add.some((t) => t.key === keys.notReadyTaint), taintRefused: refused, taint };
}
