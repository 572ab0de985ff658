import type { NodeModel } from '../model/node.ts';
import type { WorkloadPlacement } from '../model/placement.ts';
import { matchesNodeSelector, matchesRequiredTerms } from './node-selector.ts';
import { hasUntoleratedTaint } from './tolerations.ts';

type ValidPlacement = Extract<WorkloadPlacement, { state: 'valid' }>;

/**
 * Whether KubeVirt's workloads placement puts virt-handler (and so VMs) on a node: the
 * nodeSelector and required affinity match, and no NoSchedule/NoExecute taint is left untolerated.
 * An empty placement selects every node. The DaemonSet controller's automatic tolerations for
 * node.kubernetes.io/* conditions are deliberately not added: VM pods do not get them.
 */
export function placementSelects(placement: ValidPlacement, node: NodeModel): boolean {
  return (
    matchesNodeSelector(node.labels, placement.nodeSelector) &&
    matchesRequiredTerms(node, placement.requiredTerms) &&
    !hasUntoleratedTaint(node.taints, placement.tolerations)
  );
}

export function selectNodes<T extends { node: NodeModel }>(placement: ValidPlacement, items: readonly T[]): T[] {
  return items.filter((item) => placementSelects(placement, item.node));
}
