import { canRunVms } from '../readiness/sort.ts';
import type { AssessedNode } from '../readiness/assess-node.ts';

/** virt-handler's label; every virt-launcher pod selects it (KubeVirt v1.9.0, pkg/virt-controller/services/template.go). */
export const KUBEVIRT_SCHEDULABLE_LABEL = 'kubevirt.io/schedulable';
/** virt-handler's heartbeat annotation (kubevirt.io/api core/v1 VirtHandlerHeartbeat). */
export const KUBEVIRT_HEARTBEAT_ANNOTATION = 'kubevirt.io/heartbeat';
/**
 * virt-controller's node controller calls a node unresponsive, and sets the label to false, once
 * the heartbeat is this old (pkg/virt-controller/watch/node/node.go, heartBeatTimeout).
 */
export const KUBEVIRT_HEARTBEAT_TIMEOUT_MS = 5 * 60_000;

/** A node virtgate failed that KubeVirt still places new VMs on. */
export interface StillSchedulable {
  name: string;
  state: string;
  /** Why no taint keeps virt-launcher pods off: the share guard's refusal, the policy, or none set. */
  whyUntainted: string;
  /** When virt-controller stops offering the node: the last heartbeat plus the timeout; null when no heartbeat is recorded. */
  untilIso: string | null;
}

/**
 * Nodes that cannot run VMs by virtgate's verdict, yet carry `kubevirt.io/schedulable=true` and no
 * NoSchedule or NoExecute taint. A launcher pod selects only that label and tolerates only the
 * VMI's own tolerations, so the scheduler still binds new VMs there, whatever the CR's placement:
 * the placement moves virt-handler, and a virt-handler that leaves without its SIGTERM handler
 * setting the label false (killed, its node down, or that patch lost to a racing heartbeat: both
 * seen on the real node, docs/kubevirt.md) leaves it true until its heartbeat is stale. Such VMs
 * stay `Scheduled`, with no virt-handler to start them. Pure.
 */
export function stillSchedulable(nodes: readonly AssessedNode[]): StillSchedulable[] {
  return nodes
    .filter((item) => !canRunVms(item.readiness.state))
    .filter((item) => item.node.labels[KUBEVIRT_SCHEDULABLE_LABEL] === 'true')
    .filter((item) => !item.node.taints.some((taint) => taint.effect === 'NoSchedule' || taint.effect === 'NoExecute'))
    .map((item) => ({
      name: item.node.name,
      state: item.readiness.state,
      whyUntainted: whyUntainted(item),
      untilIso: heartbeatDeadline(item.node.kubevirtHeartbeat),
    }));
}

function whyUntainted(item: AssessedNode): string {
  const taint = item.report?.taint ?? null;
  if (taint?.refused) return `the share guard refused virtgate's taint: ${taint.refused}`;
  if (taint?.policy === 'off') return 'the agent\'s taint policy is off';
  return 'no taint keeps VMs off it';
}

function heartbeatDeadline(heartbeat: string | null): string | null {
  const ms = heartbeat === null ? Number.NaN : Date.parse(heartbeat);
  return Number.isFinite(ms) ? new Date(ms + KUBEVIRT_HEARTBEAT_TIMEOUT_MS).toISOString() : null;
}

/** One sentence for the gate and the page: which nodes, why, and until when. */
export function describeStillSchedulable(nodes: readonly StillSchedulable[]): string {
  const each = nodes.slice(0, 5).map((node) => {
    const until = node.untilIso === null
      ? 'until virt-controller marks it unschedulable, 5 minutes after virt-handler\'s last heartbeat'
      : `until ${node.untilIso.replace('.000Z', 'Z')} (virt-handler's last heartbeat plus virt-controller's 5-minute timeout)`;
    return `${node.name} (${node.state}; ${node.whyUntainted}) ${until}`;
  });
  const more = nodes.length > 5 ? `, and ${nodes.length - 5} more` : '';
  return `KubeVirt still places new VMs on ${nodes.length === 1 ? 'a node' : `${nodes.length} nodes`} virtgate failed, which stay Scheduled there without a virt-handler to start them: ${each.join('; ')}${more}; cordon or drain ${nodes.length === 1 ? 'it' : 'them'}, or let virtgate taint ${nodes.length === 1 ? 'it' : 'them'} (agent.taint.policy, agent.taint.maxShare)`;
}
