import type { V1NodeCondition } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { CONDITION_TYPE, type NodeKeys } from '../../core/kube/names.ts';
import { diff } from '../desired/node-state.ts';
import type { NodeApi } from '../node-api.ts';
import type { Exporter } from './exporter.ts';

/**
 * The `VirtualizationReady` node condition: written when the diff says it differs, or refreshed
 * when its heartbeat is due. Returns when it was last refreshed, as the API server holds it.
 */
export function conditionExporter(api: NodeApi, keys: NodeKeys, log: Logger): Exporter<Date | undefined> {
  return {
    async export({ node, desired, heartbeat, now }) {
      const current = node.status?.conditions?.find((c) => c.type === CONDITION_TYPE);
      const changed = diff(desired, node, keys).condition;
      const lastHeartbeat = current?.lastHeartbeatTime ? new Date(current.lastHeartbeatTime) : undefined;
      if (!changed && !heartbeat.condition) return lastHeartbeat;
      const wanted = desired.condition;
      const condition: V1NodeCondition = {
        type: CONDITION_TYPE,
        ...wanted,
        lastHeartbeatTime: now,
        lastTransitionTime: current && current.status === wanted.status && current.lastTransitionTime ? current.lastTransitionTime : now,
      };
      if (changed) log.info({ decision: 'condition', status: wanted.status, reason: wanted.reason }, wanted.message);
      await api.patchCondition(condition);
      return now;
    },
  };
}
