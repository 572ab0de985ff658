import type { V1Node } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { API_GROUP, API_VERSION, NODE_VALIDATION_KIND, type NodeKeys } from '../../core/kube/names.ts';
import type { Inventory } from '../../core/inventory/schema.ts';
import type { NodeValidation } from '../../core/report/schema.ts';
import type { TaintConfig } from '../config.ts';
import { changedFields, reportContent, statusContent } from '../desired/report.ts';
import { taintReport } from '../desired/taint.ts';
import type { NodeApi } from '../node-api.ts';
import type { Exporter } from './exporter.ts';

/**
 * The NodeValidation report: created when missing (metadata and spec only: the API server drops
 * `status` from a create, the CRD having a status subresource), then its status written through
 * `/status` whole when a field that is news changed, or only its timestamps refreshed when its
 * heartbeat is due. `status.conditions` mirrors the verdict (Ready, in the metav1.Condition shape)
 * and `status.observedGeneration` the object's metadata.generation, which status writes never
 * change. Returns when it was last refreshed, as the API server holds it.
 */
export function reportExporter(api: NodeApi, settings: { keys: NodeKeys; taintConfig: TaintConfig; agentVersion: string; inventory?: Inventory }, log: Logger): Exporter<Date | undefined> {
  const { keys, taintConfig, agentVersion } = settings;
  return {
    async export({ observation, effective, node, desired, taintRefused, heartbeat, now }) {
      const taint = taintReport(taintConfig, keys, node, taintRefused);
      const stamp = now.toISOString();
      const probedAt = observation.probedAt.toISOString();
      const existing = (await api.readNodeValidation()) ?? (await api.createNodeValidation(newReport(node, keys)));
      const published = existing.status;
      // Read at each export: the agent sets the inventory once at start.
      const verdict = reportContent(observation.verdict, effective, observation.facts, agentVersion, taint, settings.inventory);
      const content = statusContent(verdict, desired.condition, existing.metadata.generation ?? 1, published, now);
      const lastHeartbeat = published?.heartbeatAt ? new Date(published.heartbeatAt) : undefined;
      const changes = changedFields(content, published);
      if (changes.length === 0) {
        if (!heartbeat.report) return lastHeartbeat;
        await api.patchNodeValidationStatus({ probedAt, heartbeatAt: stamp }, false);
        return now;
      }
      if (published) log.info({ decision: 'report', changed: changes }, 'updating the NodeValidation');
      const transitioned = published?.ready !== content.ready || published?.tier !== content.tier;
      const lastTransitionAt = transitioned || !published?.lastTransitionAt ? stamp : published.lastTransitionAt;
      await api.patchNodeValidationStatus({ ...content, probedAt, heartbeatAt: stamp, lastTransitionAt }, true);
      return now;
    },
  };
}

/** A new report: metadata and spec; the status follows through the status subresource. */
function newReport(node: V1Node, keys: NodeKeys): NodeValidation {
  const name = node.metadata?.name ?? '';
  return {
    apiVersion: `${API_GROUP}/${API_VERSION}`,
    kind: NODE_VALIDATION_KIND,
    metadata: {
      name,
      labels: { [`${keys.prefix}/node`]: name },
      // Garbage-collected with its Node.
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata?.uid ?? '' }],
    },
    spec: { nodeName: name },
  };
}
