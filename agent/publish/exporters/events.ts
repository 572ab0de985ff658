import type { Logger } from 'pino';
import { apiFailure } from '../../../core/kube/api-error.ts';
import type { NodeApi } from '../../node-api.ts';
import type { Exporter } from '../exporter.ts';

/**
 * A Kubernetes Event on the Node when the published verdict changes (never for a held one). Best
 * effort: the verdict is already published when this runs, so a failure is only logged.
 */
export function eventsExporter(api: NodeApi, log: Logger): Exporter {
  return {
    async apply({ event, effective, now }) {
      if (!event) return;
      log.info({ decision: 'transition', from: event.from, to: { ready: effective.ready, tier: effective.tier } }, event.message);
      await api
        .createEvent({ reason: event.reason, message: event.message, type: event.type, nodeUid: event.nodeUid, now })
        .catch((error: unknown) => log.warn({ err: apiFailure(error) }, 'could not record an Event (the verdict is published)'));
    },
  };
}
