import type { V1Node, V1Taint } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { isConflict } from '../../core/kube/api-error.ts';
import { retryOnConflict } from '../../core/kube/retry.ts';
import { desiredNode, diff, metadataChanged, type NodeDiff, type NodeSettings } from '../desired/node-state.ts';
import { refuseTaint, withoutTaint, withTaint } from '../desired/taint.ts';
import type { NodeApi } from '../node-api.ts';
import type { Exporter, NodeStatus } from './exporter.ts';
import type { TaintGuard } from './taint-guard.ts';

/**
 * Labels, taints and the ownership annotation: one merge patch on the Node, only when the diff
 * says something differs. They go together because they share the annotation; a patch that
 * changes taints (a list without a merge key) carries the resourceVersion it was computed from,
 * so a concurrent writer makes the server answer 409 instead of losing a taint, and the step is
 * read, decided and written again. Returns the status as the Node now stands.
 */
export function nodeLabelsTaintsExporter(api: NodeApi, settings: NodeSettings, guard: TaintGuard, log: Logger): Exporter<NodeStatus> {
  const { keys } = settings;

  const write = (node: V1Node, changes: NodeDiff, now: Date): Promise<V1Node> => {
    const { add, remove } = changes.taints;
    const taintsChange = add.length > 0 || remove.length > 0;
    if (Object.keys(changes.labels).length > 0) log.info({ decision: 'labels', changes: changes.labels }, 'updating node labels');
    let taints: V1Taint[] = node.spec?.taints ?? [];
    for (const taint of add) {
      log.info({ decision: 'taint', action: { kind: 'add', taint } }, 'tainting the node');
      taints = withTaint(taints, taint, now);
    }
    for (const key of remove) {
      log.info({ decision: 'taint', action: { kind: 'remove', key } }, 'removing a taint');
      taints = withoutTaint(taints, key);
    }
    return api.patchNode({
      ...(Object.keys(changes.labels).length > 0 ? { labels: changes.labels } : {}),
      ...(changes.ownership !== undefined ? { annotations: { [keys.ownershipAnnotation]: changes.ownership } } : {}),
      ...(taintsChange ? { taints, resourceVersion: node.metadata?.resourceVersion ?? '' } : {}),
    });
  };

  return {
    async export(status) {
      const { verdict, facts } = status.observation;
      let { node, desired, taintRefused } = status;
      const refuse = (reason: string) => {
        taintRefused = reason;
        desired = { ...desired, taints: refuseTaint(desired.taints, keys.notReadyTaint) };
      };
      // The guard is asked once per publish, not per attempt: its answer depends on the pool, not
      // on this Node's resourceVersion, and a LIST between the read and the patch would widen the
      // window in which a busy co-writer makes every attempt conflict. The re-check after tainting
      // covers nodes that failed at the same moment.
      let guardAnswer: Awaited<ReturnType<TaintGuard['mayTaint']>> | undefined;
      await retryOnConflict(
        async () => {
          let changes = diff(desired, node, keys);
          const wantsTaint = desired.taints.present.some((taint) => taint.key === keys.notReadyTaint);
          const carriesTaint = (node.spec?.taints ?? []).some((taint) => taint.key === keys.notReadyTaint);
          if (wantsTaint) {
            // A node that already carries the taint asks again on every publish: its re-check right
            // after tainting may have come before a node that failed at the same moment was seen,
            // and only a later look can bring the pool back within the share.
            guardAnswer ??= carriesTaint ? await guard.mayKeepTaint(node) : await guard.mayTaint(node);
            const answer = guardAnswer;
            if (!answer.allowed) {
              refuse(answer.reason);
              changes = diff(desired, node, keys);
            }
          }
          if (!metadataChanged(changes)) return;
          try {
            node = await write(node, changes, status.now);
            if (changes.taints.add.length === 0) return;
            const recheck = await guard.mayKeepTaint(node);
            if (recheck.allowed) return;
            refuse(recheck.reason);
            node = await write(node, diff(desired, node, keys), status.now);
          } catch (error) {
            // Someone changed the node since it was read: read it again and decide again.
            if (isConflict(error)) {
              node = await api.readNode();
              desired = desiredNode(settings, verdict, status.effective, facts, node);
            }
            throw error;
          }
        },
        (attempt) => log.debug({ attempt }, 'node update conflicted; retrying'),
      );
      return { ...status, node, desired, taintRefused };
    },
  };
}
