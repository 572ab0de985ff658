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
export class NodeLabelsTaintsExporter implements Exporter<NodeStatus> {
  private readonly api: NodeApi;
  private readonly settings: NodeSettings;
  private readonly guard: TaintGuard;
  private readonly log: Logger;

  constructor(api: NodeApi, settings: NodeSettings, guard: TaintGuard, log: Logger) {
    this.api = api;
    this.settings = settings;
    this.guard = guard;
    this.log = log;
  }

  async export(status: NodeStatus): Promise<NodeStatus> {
    const { keys } = this.settings;
    const { verdict, facts } = status.observation;
    let { node, desired, taintRefused } = status;
    const refuse = (reason: string) => {
      taintRefused = reason;
      desired = { ...desired, taints: refuseTaint(desired.taints, keys.notReadyTaint) };
    };
    await retryOnConflict(
      async () => {
        let changes = diff(desired, node, keys);
        if (changes.taints.add.length > 0) {
          const guard = await this.guard.mayTaint(node);
          if (!guard.allowed) {
            refuse(guard.reason);
            changes = diff(desired, node, keys);
          }
        }
        if (!metadataChanged(changes)) return;
        try {
          node = await this.write(node, changes, status.now);
          if (changes.taints.add.length === 0) return;
          const recheck = await this.guard.mayKeepTaint(node);
          if (recheck.allowed) return;
          refuse(recheck.reason);
          node = await this.write(node, diff(desired, node, keys), status.now);
        } catch (error) {
          // Someone changed the node since it was read: read it again and decide again.
          if (isConflict(error)) {
            node = await this.api.readNode();
            desired = desiredNode(this.settings, verdict, status.effective, facts, node);
          }
          throw error;
        }
      },
      (attempt) => this.log.debug({ attempt }, 'node update conflicted; retrying'),
    );
    return { ...status, node, desired, taintRefused };
  }

  private write(node: V1Node, changes: NodeDiff, now: Date): Promise<V1Node> {
    const { keys } = this.settings;
    const { add, remove } = changes.taints;
    const taintsChange = add.length > 0 || remove.length > 0;
    if (Object.keys(changes.labels).length > 0) this.log.info({ decision: 'labels', changes: changes.labels }, 'updating node labels');
    let taints: V1Taint[] = node.spec?.taints ?? [];
    for (const taint of add) {
      this.log.info({ decision: 'taint', action: { kind: 'add', taint } }, 'tainting the node');
      taints = withTaint(taints, taint, now);
    }
    for (const key of remove) {
      this.log.info({ decision: 'taint', action: { kind: 'remove', key } }, 'removing a taint');
      taints = withoutTaint(taints, key);
    }
    return this.api.patchNode(taintsChange ? 'taints' : 'labels', {
      ...(Object.keys(changes.labels).length > 0 ? { labels: changes.labels } : {}),
      ...(changes.ownership !== undefined ? { annotations: { [keys.ownershipAnnotation]: changes.ownership } } : {}),
      ...(taintsChange ? { taints, resourceVersion: node.metadata?.resourceVersion ?? '' } : {}),
    });
  }
}
