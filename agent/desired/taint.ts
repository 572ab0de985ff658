import type { V1Taint } from '@kubernetes/client-node';
import type { NodeKeys } from '../../core/kube/names.ts';
import type { TaintConfig } from '../config.ts';
import type { Ownership } from './ownership.ts';
import type { EffectiveVerdict } from './verdict-hold.ts';

export type TaintAction =
  | { kind: 'none' }
  /** Put virtgate's not-ready taint on the node; the share guard decides whether it may. */
  | { kind: 'add'; taint: V1Taint }
  /** Remove a taint: virtgate's own, or the registration taint named by the bootstrap policy. */
  | { kind: 'remove'; key: string };

/**
 * What the taint policy wants done on this node. Nothing changes while the verdict is held or
 * undecided: a probe that could not tell never taints or untaints a node.
 */
export function taintAction(
  config: TaintConfig,
  keys: NodeKeys,
  effective: EffectiveVerdict,
  taints: readonly V1Taint[],
  ownership: Ownership,
): TaintAction {
  if (effective.held || effective.undecided) return { kind: 'none' };
  const has = (key: string) => taints.some((taint) => taint.key === key);
  const ownsNotReady = ownership.taints.includes(keys.notReadyTaint) && has(keys.notReadyTaint);

  if (config.policy === 'not-ready' && !effective.ready) {
    return has(keys.notReadyTaint)
      ? { kind: 'none' }
      : { kind: 'add', taint: { key: keys.notReadyTaint, value: 'true', effect: config.effect } };
  }
  // Ready, or a policy that never taints: only ever lift virtgate's own taint.
  if (ownsNotReady) return { kind: 'remove', key: keys.notReadyTaint };
  if (config.policy === 'bootstrap' && effective.ready && config.bootstrapKey && has(config.bootstrapKey)) {
    return { kind: 'remove', key: config.bootstrapKey };
  }
  return { kind: 'none' };
}

export function withTaint(taints: readonly V1Taint[], taint: V1Taint, now: Date): V1Taint[] {
  return [...taints.filter((t) => t.key !== taint.key), { ...taint, timeAdded: now }];
}

export function withoutTaint(taints: readonly V1Taint[], key: string): V1Taint[] {
  return taints.filter((taint) => taint.key !== key);
}

export interface PoolNode {
  name: string;
  /** When virtgate's taint was added, if the node has it. */
  taintedAt?: Date;
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
