import type { PoolNode } from '../desired/taint.ts';
import type { NodeApi } from '../node-api.ts';
import { carriesTaint, OUTSIDE_POOL, type PlanSettings, type PublishRead, taintWanted } from './plan.ts';
import type { ProbeOutcome } from './probe-outcome.ts';

/** The taint pool as the share guard ranks it: each member and when it got virtgate's taint. */
export async function readPool(api: NodeApi, settings: PlanSettings): Promise<PoolNode[]> {
  const nodes = await api.listNodes(settings.taintConfig.poolSelector);
  return nodes.map((n) => {
    const taint = n.spec?.taints?.find((t) => t.key === settings.keys.notReadyTaint);
    return {
      name: n.metadata?.name ?? '',
      ...(taint ? { taintedAt: taint.timeAdded ? new Date(taint.timeAdded) : new Date(0) } : {}),
    };
  });
}

/**
 * Reads the Node and its report, and the pool when the plan will ask the guard: whenever the taint
 * is wanted, whether or not the node carries it yet (a tainted node asks "may I keep it?").
 */
export async function readForPublish(api: NodeApi, settings: PlanSettings, outcome: ProbeOutcome): Promise<PublishRead> {
  const node = await api.readNode();
  const report = await api.readNodeValidation();
  if (!taintWanted(node, outcome, settings)) return { node, report, pool: undefined };
  // Pool membership only matters before tainting; a node that carries the taint is ranked as is.
  const member = carriesTaint(node, settings.keys) || (await api.nodeMatches(settings.taintConfig.poolSelector, node, settings.keys.prefix));
  return { node, report, pool: member ? await readPool(api, settings) : OUTSIDE_POOL };
}
