import type { Taint } from '../model/node.ts';
import type { Toleration } from '../model/placement.ts';

/** Kubernetes' Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go). */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect !== '' && toleration.effect !== taint.effect) return false;
  if (toleration.key !== '' && toleration.key !== taint.key) return false;
  switch (toleration.operator) {
    case '':
    case 'Equal':
      return toleration.value === taint.value;
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Only these effects keep a pod off a node; PreferNoSchedule is a preference. */
const BLOCKING_EFFECTS = new Set(['NoSchedule', 'NoExecute']);

/** The taints that keep pods with these tolerations off the node. */
export function untoleratedTaints(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint[] {
  return taints.filter((taint) => BLOCKING_EFFECTS.has(taint.effect) && !tolerations.some((toleration) => toleratesTaint(toleration, taint)));
}

/** Whether any taint keeps pods with these tolerations off the node; `untoleratedTaints` without building the list. */
export function hasUntoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[]): boolean {
  for (const taint of taints) {
    if (!BLOCKING_EFFECTS.has(taint.effect)) continue;
    let tolerated = false;
    for (const toleration of tolerations) {
      if (toleratesTaint(toleration, taint)) {
        tolerated = true;
        break;
      }
    }
    if (!tolerated) return true;
  }
  return false;
}
