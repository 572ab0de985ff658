import type { V1NodeCondition } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { CONDITION_TYPE, type NodeKeys } from '../../core/kube/names.ts';
import { diff } from '../desired/node-state.ts';
import type { NodeApi } from '../node-api.ts';
import type { Exporter, NodeStatus } from './exporter.ts';

/**
 * The `VirtualizationReady` node condition: written when the diff says it differs, or refreshed
 * when its heartbeat is due. Returns when it was last refreshed, as the API server holds it.
 */
export class ConditionExporter implements Exporter<Date | undefined> {
  private readonly api: NodeApi;
  private readonly keys: NodeKeys;
  private readonly log: Logger;

  constructor(api: NodeApi, keys: NodeKeys, log: Logger) {
    this.api = api;
    this.keys = keys;
    this.log = log;
  }

  async export({ node, desired, heartbeat, now }: NodeStatus): Promise<Date | undefined> {
    const current = node.status?.conditions?.find((c) => c.type === CONDITION_TYPE);
    const changed = diff(desired, node, this.keys).condition;
    const lastHeartbeat = current?.lastHeartbeatTime ? new Date(current.lastHeartbeatTime) : undefined;
    if (!changed && !heartbeat.condition) return lastHeartbeat;
    const wanted = desired.condition;
    const condition: V1NodeCondition = {
      type: CONDITION_TYPE,
      ...wanted,
      lastHeartbeatTime: now,
      lastTransitionTime: current && current.status === wanted.status && current.lastTransitionTime ? current.lastTransitionTime : now,
    };
    if (changed) this.log.info({ decision: 'condition', status: wanted.status, reason: wanted.reason }, wanted.message);
    await this.api.patchCondition(condition);
    return now;
  }
}
