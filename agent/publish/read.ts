import type { V1Node } from '@kubernetes/client-node';
import type { NodeValidation } from '../../core/report/schema.ts';
import type { NodeSettings } from '../desired/node-state.ts';
import { carriesTaint, OUTSIDE_POOL, type PoolNode, type PoolRead } from '../desired/share-guard.ts';
import type { NodeApi } from '../node-api.ts';

/** Everything one publish plans from: the Node, its report, and the share guard's input. */
export interface PublishRead {
  node: V1Node;
  /** The NodeValidation report, when it exists. */
  report: NodeValidation | undefined;
  /** Read only when the taint is wanted. */
  pool: PoolRead;
}

/** The own Node and its NodeValidation, as one publish attempt starts from them. */
export async function readNodeAndReport(api: NodeApi): Promise<Omit<PublishRead, 'pool'>> {
  const node = await api.readNode();
  const report = await api.readNodeValidation();
  return { node, report };
}

/**
 * The taint pool as the share guard ranks it: each member and when it got virtgate's taint. Pool
 * membership only matters before tainting; a node that carries the taint is ranked as it stands.
 */
export async function readPool(api: NodeApi, settings: NodeSettings, node: V1Node): Promise<PoolNode[] | typeof OUTSIDE_POOL> {
  const member = carriesTaint(node, settings.keys) || (await api.nodeMatches(settings.taintConfig.poolSelector, node, settings.keys.prefix));
  if (!member) return OUTSIDE_POOL;
  const nodes = await api.listNodes(settings.taintConfig.poolSelector);
  return nodes.map((n) => {
    const taint = n.spec?.taints?.find((t) => t.key === settings.keys.notReadyTaint);
    return {
      name: n.metadata?.name ?? '',
      ...(taint ? { taintedAt: taint.timeAdded ? new Date(taint.timeAdded) : new Date(0) } : {}),
    };
  });
}
