import type { JsonObject } from '../../../core/json.ts';
import type { KubeVirtSummary } from '../../model/kubevirt.ts';
import type { WorkloadPlacement } from '../../model/placement.ts';
import { clip } from '../../../core/untrusted.ts';
import { selectNodes } from '../../placement/select-nodes.ts';
import { describeStillSchedulable, stillSchedulable } from '../../placement/still-schedulable.ts';
import { canRunVms } from '../../readiness/sort.ts';
import type { AssessedNode } from '../../readiness/assess-node.ts';
import { firstFew, nameList, plural } from '../evidence.ts';
import { type ClusterInputs, type Finding, gateRule } from '../rule.ts';
import { kubevirtMissing } from './kubevirt.ts';

/**
 * kubevirt.placement: which nodes KubeVirt's spec.workloads.nodePlacement selects (virt-handler,
 * and so VMs, run there). fail when it selects a node that is not ready (not-ready or unknown) or
 * no ready node at all; pass when every selected node is ready (emulation counts: the agent's
 * policy allowed it, and kubevirt.emulation-consistent judges it). The fix is a nodeSelector on
 * virtgate's ready label. An unset placement selects every node (the messages say so, and pass
 * still recommends the nodeSelector). No KubeVirt, or a placement that cannot be read → unknown.
 * A right placement is not the whole answer: a failed node outside it that KubeVirt still calls
 * schedulable, with no taint, takes new VMs all the same (still-schedulable.ts); that turns a pass
 * into warn and is added to a fail's message.
 */
export function checkPlacement(kubevirt: KubeVirtSummary, nodes: readonly AssessedNode[], prefix: string): Finding {
  const missing = kubevirtMissing(kubevirt);
  if (missing !== null || kubevirt.state !== 'present') return { status: 'unknown', message: `${missing ?? ''}: no placement to check`, evidence: { kubevirt: kubevirt.state } };
  const placement = kubevirt.cr.workloadsPlacement;
  if (placement.state === 'invalid') {
    return { status: 'unknown', message: `cannot read spec.workloads.nodePlacement: ${placement.reason}`, evidence: { reason: placement.reason } };
  }
  // `nodes` is sorted worst first, and filtering keeps that order.
  const selected = selectNodes(placement, nodes);
  const result = judgeSelection(placement, kubevirt.cr.workloadsPlacementSet, selected, prefix);
  // A selected node keeps virt-handler, and a fail already names it when it is not ready.
  const selectedNames = new Set(selected.map((item) => item.node.name));
  const lingering = stillSchedulable(nodes.filter((item) => !selectedNames.has(item.node.name)));
  if (lingering.length === 0) return result;
  const evidence = { ...result.evidence, stillSchedulable: firstFew(lingering.map((node) => `${node.name} (${node.state})`)) };
  const message = `${result.message}. ${describeStillSchedulable(lingering)}`;
  return { ...result, status: result.status === 'pass' ? 'warn' : result.status, message, evidence };
}

type ReadablePlacement = Extract<WorkloadPlacement, { state: 'valid' }>;

/** The placement's own verdict: pass or fail from the nodes it selects. */
function judgeSelection(placement: ReadablePlacement, placementSet: boolean, selected: readonly AssessedNode[], prefix: string): Finding {
  const readyLabel = `${prefix}/ready`;
  const fix = `set spec.workloads.nodePlacement.nodeSelector to {"${readyLabel}": "true"} so that VMs land only on validated nodes`;
  const bad = selected.filter((item) => !canRunVms(item.readiness.state));
  const good = selected.length - bad.length;
  const evidence: JsonObject = {
    selected: selected.length,
    selectedReady: good,
    selectedNotReady: firstFew(bad.map((item) => `${item.node.name} (${item.readiness.state})`)),
    nodeSelector: Object.fromEntries(Object.entries(placement.nodeSelector).slice(0, 20).map(([key, value]) => [clip(key, 100), clip(value, 63)])),
    requiredAffinityTerms: placement.requiredTerms === null ? null : placement.requiredTerms.length,
    tolerations: placement.tolerations.length,
    recommendedNodeSelector: { [readyLabel]: 'true' },
  };
  if (!placementSet) {
    // No placement at all: KubeVirt runs virt-handler, and so VMs, wherever the scheduler allows.
    const unset = 'spec.workloads.nodePlacement is not set, so KubeVirt uses every node without a taint it does not tolerate';
    evidence.nodePlacementSet = false;
    if (bad.length > 0) {
      const names = nameList(bad.map((item) => `${item.node.name} (${item.readiness.state})`));
      return { status: 'fail', message: `${unset}, ${plural(bad.length, 'node')} not ready among them: ${names}; ${fix}`, evidence };
    }
    if (good === 0) return { status: 'fail', message: `${unset}, and no node is ready: VMs cannot be placed; ${fix}`, evidence };
    return {
      status: 'pass',
      message: `${unset}: ${plural(good, 'node')}, all ready now; set spec.workloads.nodePlacement.nodeSelector to {"${readyLabel}": "true"} to keep VMs off nodes that fail validation later`,
      evidence,
    };
  }
  evidence.nodePlacementSet = true;
  const scope = Object.keys(placement.nodeSelector).length === 0 && placement.requiredTerms === null ? 'selects every node and ' : '';
  if (bad.length > 0) {
    const names = nameList(bad.map((item) => `${item.node.name} (${item.readiness.state})`));
    return { status: 'fail', message: `KubeVirt's workloads placement ${scope}selects ${plural(bad.length, 'node')} that ${bad.length === 1 ? 'is' : 'are'} not ready: ${names}; ${fix}`, evidence };
  }
  if (good === 0) {
    // Already on virtgate's label: the placement is right, the nodes are not.
    const onReadyLabel = placement.nodeSelector[readyLabel] === 'true';
    const remedy = onReadyLabel ? `no node passes validation: see why in each node's report (kubectl get nodevalidations)` : fix;
    return { status: 'fail', message: `KubeVirt's workloads placement selects no ready node: VMs cannot be placed; ${remedy}`, evidence };
  }
  return { status: 'pass', message: `KubeVirt's workloads placement ${scope}selects ${plural(good, 'node')}, all ready`, evidence };
}

/** The rules this file adds to the gate (registered in ../rules.ts). */
export const placementRule = gateRule('kubevirt.placement', ({ model, nodes, config }: ClusterInputs) => checkPlacement(model.kubevirt, nodes, config.prefix));
