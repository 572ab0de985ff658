import type { V1Node, V1Taint } from '@kubernetes/client-node';
import { CONDITION_TYPE, type NodeKeys } from '../core/kube/names.ts';
import { parseOwnership } from '../core/kube/ownership.ts';

/** What `virtgate prune` removes from one Node: only what the ownership annotation records as virtgate's. */
export interface NodePrunePlan {
  node: string;
  /** Owned label keys present on the node. */
  labels: string[];
  /** Owned taint keys present on the node. */
  taints: string[];
  annotation: boolean;
  condition: boolean;
  /**
   * Keys under the prefix that stay, with why: recorded as owned but outside the prefix (a
   * tampered annotation never makes prune delete a foreign key), or present but never recorded.
   */
  leftAlone: Array<{ key: string; kind: 'label' | 'taint'; why: 'outside the prefix' | 'not recorded as owned' }>;
}

export function planNode(node: V1Node, keys: NodeKeys): NodePrunePlan {
  const labels = node.metadata?.labels ?? {};
  const taints = node.spec?.taints ?? [];
  const annotation = node.metadata?.annotations?.[keys.ownershipAnnotation];
  const owned = parseOwnership(annotation);
  const underPrefix = (key: string) => key.startsWith(`${keys.prefix}/`);
  const hasTaint = (key: string) => taints.some((taint) => taint.key === key);
  const leftAlone: NodePrunePlan['leftAlone'] = [];

  for (const key of owned.labels) if (!underPrefix(key) && key in labels) leftAlone.push({ key, kind: 'label', why: 'outside the prefix' });
  for (const key of owned.taints) if (!underPrefix(key) && hasTaint(key)) leftAlone.push({ key, kind: 'taint', why: 'outside the prefix' });
  for (const key of Object.keys(labels)) {
    if (underPrefix(key) && !owned.labels.includes(key)) leftAlone.push({ key, kind: 'label', why: 'not recorded as owned' });
  }
  for (const key of new Set(taints.map((taint) => taint.key))) {
    if (underPrefix(key) && !owned.taints.includes(key)) leftAlone.push({ key, kind: 'taint', why: 'not recorded as owned' });
  }

  return {
    node: node.metadata?.name ?? '',
    labels: owned.labels.filter((key) => underPrefix(key) && key in labels).sort(),
    taints: owned.taints.filter((key) => underPrefix(key) && hasTaint(key)).sort(),
    annotation: annotation !== undefined,
    condition: (node.status?.conditions ?? []).some((condition) => condition.type === CONDITION_TYPE),
    leftAlone,
  };
}

export function nothingToRemove(plan: NodePrunePlan): boolean {
  return plan.labels.length === 0 && plan.taints.length === 0 && !plan.annotation && !plan.condition;
}

export interface MetadataPatch {
  metadata: { resourceVersion?: string; labels?: Record<string, null>; annotations?: Record<string, null> };
  spec?: { taints: V1Taint[] };
}

/**
 * One merge patch for labels, the annotation and taints. Taints are a list without a merge key, so
 * the patch carries the whole remaining list and the resourceVersion it was computed from: a
 * concurrent change makes the server answer 409 instead of losing someone else's taint.
 */
export function metadataPatch(node: V1Node, plan: NodePrunePlan, keys: NodeKeys): MetadataPatch | undefined {
  if (plan.labels.length === 0 && plan.taints.length === 0 && !plan.annotation) return undefined;
  const patch: MetadataPatch = { metadata: {} };
  if (plan.taints.length > 0) {
    patch.metadata.resourceVersion = node.metadata?.resourceVersion ?? '';
    patch.spec = { taints: (node.spec?.taints ?? []).filter((taint) => !plan.taints.includes(taint.key)) };
  }
  if (plan.labels.length > 0) patch.metadata.labels = Object.fromEntries(plan.labels.map((key) => [key, null]));
  if (plan.annotation) patch.metadata.annotations = { [keys.ownershipAnnotation]: null };
  return patch;
}

/** Strategic merge patch for nodes/status that deletes the condition by its merge key, leaving the kubelet's. */
export function conditionDeletePatch(): { status: { conditions: Array<{ type: string; $patch: 'delete' }> } } {
  return { status: { conditions: [{ type: CONDITION_TYPE, $patch: 'delete' }] } };
}
