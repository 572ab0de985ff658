import type { V1Node, V1NodeCondition } from '@kubernetes/client-node';
import { CONDITION_TYPE } from '../../../core/kube/names.ts';
import type { DesiredCondition } from '../../desired/condition.ts';
import type { HeartbeatDue } from '../../heartbeat.ts';

export interface ConditionPlan {
  write: V1NodeCondition | undefined;
  /** Its status, reason or message changed (not only a heartbeat). */
  changed: boolean;
  heartbeatAt: Date | undefined;
}

/** The `VirtualizationReady` write: when it changed or its heartbeat is due; its transition time moves only with its status. */
export function planCondition(wanted: DesiredCondition, changed: boolean, node: V1Node, heartbeat: HeartbeatDue, now: Date): ConditionPlan {
  const current = node.status?.conditions?.find((c) => c.type === CONDITION_TYPE);
  const lastHeartbeat = current?.lastHeartbeatTime ? new Date(current.lastHeartbeatTime) : undefined;
  if (!changed && !heartbeat.condition) return { write: undefined, changed, heartbeatAt: lastHeartbeat };
  const write: V1NodeCondition = {
    type: CONDITION_TYPE,
    ...wanted,
    lastHeartbeatTime: now,
    lastTransitionTime: current && current.status === wanted.status && current.lastTransitionTime ? current.lastTransitionTime : now,
  };
  return { write, changed, heartbeatAt: now };
}
