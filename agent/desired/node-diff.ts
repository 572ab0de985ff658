import type { V1Node, V1Taint } from '@kubernetes/client-node';
import { CONDITION_TYPE, type NodeKeys } from '../../core/kube/names.ts';
import { formatOwnership, parseOwnership } from '../../core/kube/ownership.ts';
import type { DesiredNode } from './node-state.ts';
import type { DesiredTaints } from './taint.ts';

/** How a Node differs from the desired state: exactly what a publish writes, and what counts as drift. */
export interface NodeDiff {
  /** Merge patch for `metadata.labels`: changed values, `null` for owned labels no longer wanted. */
  labels: Record<string, string | null>;
  taints: TaintChanges;
  /** The new ownership annotation, when it changes. */
  ownership: string | undefined;
  /** The condition's status, reason or message differ (or it is missing). */
  condition: boolean;
}

export interface TaintChanges {
  add: V1Taint[];
  remove: string[];
}

/** The merge-patch body for `metadata.labels`: changed keys, and `null` for owned keys no longer wanted. */
export function labelPatch(
  desired: Readonly<Record<string, string>>,
  current: Readonly<Record<string, string>>,
  owned: readonly string[],
): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(desired)) {
    if (current[key] !== value) patch[key] = value;
  }
  for (const key of owned) {
    if (!(key in desired) && key in current) patch[key] = null;
  }
  return patch;
}

/** What to add and remove so that `taints` holds what is desired; keys already right are left alone. */
export function taintChanges(desired: DesiredTaints, taints: readonly V1Taint[]): TaintChanges {
  const has = (key: string | undefined) => taints.some((taint) => taint.key === key);
  return { add: desired.present.filter((taint) => !has(taint.key)), remove: desired.absent.filter((key) => has(key)) };
}

export function diff(desired: DesiredNode, node: V1Node, keys: NodeKeys): NodeDiff {
  const ownership = parseOwnership(node.metadata?.annotations?.[keys.ownershipAnnotation]);
  const labels = labelPatch(desired.labels, node.metadata?.labels ?? {}, ownership.labels);
  const taints = taintChanges(desired.taints, node.spec?.taints ?? []);
  const current = node.status?.conditions?.find((c) => c.type === CONDITION_TYPE);
  const { status, reason, message } = desired.condition;
  const added = taints.add.map((taint) => taint.key ?? '');
  const next = formatOwnership({
    labels: Object.keys(desired.labels),
    taints: [...ownership.taints, ...added].filter((key) => !taints.remove.includes(key)),
  });
  return {
    labels,
    taints,
    ownership: next === formatOwnership(ownership) ? undefined : next,
    condition: !current || current.status !== status || current.reason !== reason || current.message !== message,
  };
}

/** Whether the Node object's metadata or taints need a write (the condition is written on its own). */
export function metadataChanged(changes: NodeDiff): boolean {
  return Object.keys(changes.labels).length > 0 || changes.ownership !== undefined || changes.taints.add.length > 0 || changes.taints.remove.length > 0;
}

/** Whether anything virtgate owns on the Node differs from the desired state. */
export function differs(changes: NodeDiff): boolean {
  return metadataChanged(changes) || changes.condition;
}
