import type { V1Node } from '@kubernetes/client-node';
import type { NodeKeys } from '../../core/kube/names.ts';
import type { DesiredNode, NodeSettings } from './node-state.ts';
import type { DesiredTaints } from './taint.ts';

export interface PoolNode {
  name: string;
  /** When virtgate's taint was added, if the node has it. */
  taintedAt?: Date;
}

/** This node is not selected by the taint pool selector (and does not carry the taint). */
export const OUTSIDE_POOL = 'outside-pool';

/** The share guard's input: the pool as read, OUTSIDE_POOL, or undefined when the taint is not wanted (not read). */
export type PoolRead = PoolNode[] | typeof OUTSIDE_POOL | undefined;

export function carriesTaint(node: V1Node, keys: NodeKeys): boolean {
  return (node.spec?.taints ?? []).some((taint) => taint.key === keys.notReadyTaint);
}

/**
 * The share guard: at most `floor(maxShare × pool size)` pool nodes may carry the taint.
 * Nodes that fail at the same moment each see the others late, so after tainting every node
 * checks again and the latest-tainted ones (by time, then name) give their taint back.
 */
export function guardAllows(pool: readonly PoolNode[], self: string, maxShare: number): { allowed: boolean; reason: string } {
  const limit = Math.floor(maxShare * pool.length);
  const tainted = pool
    .filter((node) => node.taintedAt !== undefined || node.name === self)
    .sort((a, b) => (a.taintedAt?.getTime() ?? Infinity) - (b.taintedAt?.getTime() ?? Infinity) || a.name.localeCompare(b.name));
  const rank = tainted.findIndex((node) => node.name === self);
  const allowed = rank >= 0 && rank < limit;
  const reason = `${tainted.length} of ${pool.length} pool nodes would carry the taint; the limit is ${limit} (${Math.round(maxShare * 100)}%)`;
  return { allowed, reason };
}

/** The guard refused `key`: this node must not carry it (if it already does, it is taken off again). */
export function refuseTaint(desired: DesiredTaints, key: string): DesiredTaints {
  return { present: desired.present.filter((taint) => taint.key !== key), absent: [...new Set([...desired.absent, key])] };
}

/**
 * The share guard's answer for `node`: undefined when it may carry the taint, else why not. A node
 * that already carries it is ranked as it stands ("may keep"); one that does not must be in the pool.
 */
function guardRefusal(node: V1Node, pool: PoolRead, keys: NodeKeys, maxShare: number): string | undefined {
  const outside = 'this node is outside the taint pool selector';
  const name = node.metadata?.name ?? '';
  if (pool === undefined) return 'the taint pool was not read';
  if (pool === OUTSIDE_POOL) return outside;
  if (!carriesTaint(node, keys) && !pool.some((member) => member.name === name)) return outside;
  const guard = guardAllows(pool, name, maxShare);
  return guard.allowed ? undefined : guard.reason;
}

export interface GuardedNode {
  /** The desired state the guard lets stand: without virtgate's taint when it refused it. */
  desired: DesiredNode;
  /** The guard's refusal, when virtgate's taint was wanted and refused. */
  refused: string | undefined;
}

/** The desired state once the share guard has answered; the guard is asked only when virtgate's taint is wanted. */
export function guardTaint(desired: DesiredNode, node: V1Node, pool: PoolRead, settings: NodeSettings): GuardedNode {
  const { keys } = settings;
  if (!desired.taints.present.some((taint) => taint.key === keys.notReadyTaint)) return { desired, refused: undefined };
  const refused = guardRefusal(node, pool, keys, settings.taintConfig.maxShare);
  if (refused === undefined) return { desired, refused };
  return { desired: { ...desired, taints: refuseTaint(desired.taints, keys.notReadyTaint) }, refused };
}
