import type { Logger } from 'pino';
import { API_GROUP, API_VERSION, NODE_VALIDATION_KIND, type NodeKeys } from '../../core/kube/names.ts';
import type { Inventory } from '../../core/inventory/schema.ts';
import type { NodeValidation } from '../../core/report/schema.ts';
import type { TaintConfig } from '../config.ts';
import { changedFields, reportContent } from '../desired/report.ts';
import { taintReport } from '../desired/taint.ts';
import type { NodeApi } from '../node-api.ts';
import type { Exporter } from './exporter.ts';

/**
 * The NodeValidation report: created when missing, its status replaced when a field that is news
 * changed, or only its timestamps refreshed when its heartbeat is due. Returns when it was last
 * refreshed, as the API server holds it.
 */
export function reportExporter(api: NodeApi, settings: { keys: NodeKeys; taintConfig: TaintConfig; agentVersion: string; inventory?: Inventory }, log: Logger): Exporter<Date | undefined> {
  const { keys, taintConfig, agentVersion } = settings;
  return {
    async export({ observation, effective, node, taintRefused, heartbeat, now }) {
      const taint = taintReport(taintConfig, keys, node, taintRefused);
      // Read at each export: the agent sets the inventory once at start.
      const content = reportContent(observation.verdict, effective, observation.facts, agentVersion, taint, settings.inventory);
      const existing = await api.readNodeValidation();
      const published = existing?.status;
      const stamp = now.toISOString();
      const probedAt = observation.probedAt.toISOString();
      if (!existing) {
        const name = node.metadata?.name ?? '';
        const object: NodeValidation = {
          apiVersion: `${API_GROUP}/${API_VERSION}`,
          kind: NODE_VALIDATION_KIND,
          metadata: {
            name,
            labels: { [`${keys.prefix}/node`]: name },
            // Garbage-collected with its Node.
            ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata?.uid ?? '' }],
          },
          spec: { nodeName: name },
          status: { ...content, probedAt, lastTransitionAt: stamp, heartbeatAt: stamp },
        };
        await api.createNodeValidation(object);
        return now;
      }
      const lastHeartbeat = published?.heartbeatAt ? new Date(published.heartbeatAt) : undefined;
      const changes = changedFields(content, published);
      if (changes.length === 0) {
        if (!heartbeat.report) return lastHeartbeat;
        await api.patchNodeValidationStatus({ probedAt, heartbeatAt: stamp }, false);
        return now;
      }
      log.info({ decision: 'report', changed: changes }, 'updating the NodeValidation');
      const transitioned = published?.ready !== content.ready || published?.tier !== content.tier;
      const lastTransitionAt = transitioned || !published?.lastTransitionAt ? stamp : published.lastTransitionAt;
      await api.patchNodeValidationStatus({ ...content, probedAt, heartbeatAt: stamp, lastTransitionAt }, true);
      return now;
    },
  };
}
