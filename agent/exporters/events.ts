import type { Logger } from 'pino';
import { apiFailure } from '../../core/kube/api-error.ts';
import type { NodeApi } from '../node-api.ts';
import type { Exporter } from './exporter.ts';

/**
 * A Kubernetes Event on the Node when the published verdict changes (never for a held one). Best
 * effort: the verdict is already published when this runs, so a failure is only logged.
 */
export function eventsExporter(api: NodeApi, log: Logger): Exporter {
  return {
    async export({ previous, effective, desired, node, now }) {
      if (!previous || effective.held || (previous.ready === effective.ready && previous.tier === effective.tier)) return;
      const message = `virtgate verdict changed: ready ${previous.ready} → ${effective.ready}, tier ${previous.tier} → ${effective.tier}: ${desired.condition.message}`;
      log.info({ decision: 'transition', from: previous, to: { ready: effective.ready, tier: effective.tier } }, message);
      await api
        .createEvent({
          reason: effective.ready ? 'VirtualizationReady' : 'VirtualizationNotReady',
          message,
          type: effective.ready ? 'Normal' : 'Warning',
          nodeUid: node.metadata?.uid ?? '',
          now,
        })
        .catch((error: unknown) => log.warn({ err: apiFailure(error) }, 'could not record an Event (the verdict is published)'));
    },
  };
}
