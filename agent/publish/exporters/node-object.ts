import type { V1Node } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { NodeApi } from '../../node-api.ts';
import type { Exporter } from '../exporter.ts';

/**
 * Labels, taints and the ownership annotation: one merge patch on the Node, only when the plan
 * has one. They go together because they share the annotation. Returns the Node as written, or
 * undefined when nothing was written. A 409 is not handled here: the publisher reads again.
 */
export function nodeObjectExporter(api: NodeApi, log: Logger): Exporter<V1Node | undefined> {
  return {
    async apply({ patch, changes }) {
      if (!patch) return undefined;
      if (Object.keys(changes.labels).length > 0) log.info({ decision: 'labels', changes: changes.labels }, 'updating node labels');
      for (const taint of changes.taints.add) log.info({ decision: 'taint', action: { kind: 'add', taint } }, 'tainting the node');
      for (const key of changes.taints.remove) log.info({ decision: 'taint', action: { kind: 'remove', key } }, 'removing a taint');
      return api.patchNode(patch);
    },
  };
}
