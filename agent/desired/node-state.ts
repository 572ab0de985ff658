import type { V1Node, V1Taint } from '@kubernetes/client-node';
import type { HostFacts } from '../../core/checks/registry.ts';
import { CONDITION_TYPE, type NodeKeys } from '../../core/kube/names.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import type { TaintConfig } from '../config.ts';
import { type DesiredCondition, desiredCondition } from './condition.ts';
import { desiredLabels, labelPatch } from './labels.ts';
import { formatOwnership, parseOwnership } from '../../core/kube/ownership.ts';
import { type DesiredTaints, desiredTaints, taintChanges } from './taint.ts';
import type { EffectiveVerdict } from './verdict-hold.ts';

/** Everything virtgate wants on its Node object: labels, taints and its condition. */
export interface DesiredNode {
  /** Exactly the labels virtgate owns, with their values. */
  labels: Record<string, string>;
  taints: DesiredTaints;
  condition: DesiredCondition;
}

export interface NodeSettings {
  keys: NodeKeys;
  taintConfig: TaintConfig;
}

/**
 * The desired state for `node` as it is now: a label whose check could not run keeps the value
 * the node has, and only taints the ownership annotation names as virtgate's may be lifted.
 */
export function desiredNode(settings: NodeSettings, verdict: Verdict, effective: EffectiveVerdict, facts: HostFacts, node: V1Node): DesiredNode {
  const ownership = parseOwnership(node.metadata?.annotations?.[settings.keys.ownershipAnnotation]);
  return {
    labels: desiredLabels(settings.keys, verdict, effective, facts, node.metadata?.labels ?? {}),
    taints: desiredTaints(settings.taintConfig, settings.keys, effective, ownership),
    condition: desiredCondition(verdict, effective),
  };
}

/** How a Node differs from the desired state: exactly what a publish writes, and what counts as drift. */
export interface NodeDiff {
  /** Merge patch for `metadata.labels`: changed values, `null` for owned labels no longer wanted. */
  labels: Record<string, string | null>;
  taints: { add: V1Taint[]; remove: string[] };
  /** The new ownership annotation, when it changes. */
  ownership: string | undefined;
  /** The condition's status, reason or message differ (or it is missing). */
  condition: boolean;
}

export function diff(desired: DesiredNode, node: V1Node, keys: NodeKeys): NodeDiff {
  const ownership = parseOwnership(node.metadata?.annotations?.[keys.ownershipAnnotation]);
  const taints = taintChanges(desired.taints, node.spec?.taints ?? []);
  const added = taints.add.map((taint) => taint.key ?? '');
  const next = formatOwnership({
    labels: Object.keys(desired.labels),
    taints: [...ownership.taints, ...added].filter((key) => !taints.remove.includes(key)),
  });
  const current = node.status?.conditions?.find((c) => c.type === CONDITION_TYPE);
  const { status, reason, message } = desired.condition;
  return {
    labels: labelPatch(desired.labels, node.metadata?.labels ?? {}, ownership.labels),
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
