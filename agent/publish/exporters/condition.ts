import type { Logger } from 'pino';
import type { NodeApi } from '../../node-api.ts';
import type { Exporter } from '../exporter.ts';

/** The `VirtualizationReady` node condition: written when it differs or its heartbeat is due. */
export function conditionExporter(api: NodeApi, log: Logger): Exporter {
  return {
    async apply({ condition, desired }) {
      if (!condition.write) return;
      const wanted = desired.condition;
      if (condition.changed) log.info({ decision: 'condition', status: wanted.status, reason: wanted.reason }, wanted.message);
      await api.patchCondition(condition.write);
    },
  };
}
