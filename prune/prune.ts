import type { V1Node } from '@kubernetes/client-node';
import { apiFailure, isConflict, isNotFound } from '../core/kube/api-error.ts';
import { retryOnConflict } from '../core/kube/retry.ts';
import type { NodeKeys } from '../core/kube/names.ts';
import { conditionDeletePatch, metadataPatch, type NodePrunePlan, nothingToRemove, planNode } from './plan.ts';
import type { PruneApi } from './prune-api.ts';

export type NodeOutcome =
  /** gone: the Node was deleted while prune worked on it. */
  | { node: string; result: 'pruned' | 'clean' | 'gone'; plan: NodePrunePlan }
  | { node: string; result: 'failed'; plan: NodePrunePlan; error: string };

export interface PruneResult {
  dryRun: boolean;
  nodes: NodeOutcome[];
  nodeValidations: { deleted: string[]; failed: Array<{ name: string; error: string }> };
}

/**
 * Removes from every node what virtgate recorded as its own (labels, taints, the ownership
 * annotation) and its condition, then deletes every NodeValidation. Idempotent: a second run finds
 * nothing to remove. One node failing never stops the others. Throws only when the nodes cannot be
 * listed at all.
 */
export async function prune(api: PruneApi, keys: NodeKeys, options: { dryRun: boolean }): Promise<PruneResult> {
  const nodes = await api.listNodes();
  const outcomes: NodeOutcome[] = [];
  for (const node of nodes) outcomes.push(await pruneNode(api, keys, node));

  const deleted: string[] = [];
  const failed: Array<{ name: string; error: string }> = [];
  for (const name of await api.listNodeValidationNames()) {
    try {
      if (await api.deleteNodeValidation(name)) deleted.push(name);
    } catch (error) {
      failed.push({ name, error: describe(error) });
    }
  }
  return { dryRun: options.dryRun, nodes: outcomes, nodeValidations: { deleted, failed } };
}

async function pruneNode(api: PruneApi, keys: NodeKeys, initial: V1Node): Promise<NodeOutcome> {
  const name = initial.metadata?.name ?? '';
  let node = initial;
  let plan = planNode(node, keys);
  if (nothingToRemove(plan)) return { node: name, result: 'clean', plan };
  // What the outcome reports: the first plan, before a retry might find a part already removed.
  const planned = plan;
  try {
    if (plan.condition) await api.patchNodeStatus(name, conditionDeletePatch());
    await retryOnConflict(async () => {
      const patch = metadataPatch(node, plan, keys);
      if (!patch) return;
      try {
        await api.patchNode(name, patch);
      } catch (error) {
        // Someone changed the node since it was read: read it again and plan again.
        if (isConflict(error)) {
          node = await api.readNode(name);
          plan = planNode(node, keys);
        }
        throw error;
      }
    });
    return { node: name, result: 'pruned', plan: planned };
  } catch (error) {
    if (isNotFound(error)) return { node: name, result: 'gone', plan: planned };
    return { node: name, result: 'failed', plan: planned, error: describe(error) };
  }
}

function describe(error: unknown): string {
  const failure = apiFailure(error);
  return failure.status ? `HTTP ${failure.status}: ${failure.message}` : failure.message;
}
