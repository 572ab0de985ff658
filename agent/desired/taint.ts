import type { V1Taint } from '@kubernetes/client-node';
import type { NodeKeys } from '../../core/kube/names.ts';
import type { TaintReport } from '../../core/report/schema.ts';
import type { TaintConfig } from '../config.ts';
import type { Ownership } from '../../core/kube/ownership.ts';
import type { EffectiveVerdict } from './verdict-hold.ts';

/** The taints virtgate wants on (`present`) and off (`absent`, by key) its node; others are left alone. */
export interface DesiredTaints {
  /** Put on when missing; the share guard decides whether it may. */
  present: V1Taint[];
  /** Virtgate's own taint once it is no longer wanted, or the registration taint named by the bootstrap policy. */
  absent: string[];
}

export const NO_TAINTS: DesiredTaints = { present: [], absent: [] };

/**
 * What the taint policy wants on this node. It wants nothing while the verdict is held or
 * undecided: a probe that could not tell never taints or untaints a node. It only ever lifts a
 * taint of its own key that the ownership annotation says virtgate put there.
 */
export function desiredTaints(config: TaintConfig, keys: NodeKeys, effective: EffectiveVerdict, ownership: Ownership): DesiredTaints {
  if (effective.held || effective.undecided) return NO_TAINTS;
  if (config.policy === 'not-ready' && !effective.ready) {
    return { present: [{ key: keys.notReadyTaint, value: 'true', effect: config.effect }], absent: [] };
  }
  // Ready, or a policy that never taints: only ever lift virtgate's own taint.
  const absent = ownership.taints.includes(keys.notReadyTaint) ? [keys.notReadyTaint] : [];
  if (config.policy === 'bootstrap' && effective.ready && config.bootstrapKey) absent.push(config.bootstrapKey);
  return { present: [], absent };
}

/** The guard refused `key`: this node must not carry it (if it already does, it is taken off again). */
export function refuseTaint(desired: DesiredTaints, key: string): DesiredTaints {
  return { present: desired.present.filter((taint) => taint.key !== key), absent: [...new Set([...desired.absent, key])] };
}

/** What to add and remove so that `taints` holds what is desired; keys already right are left alone. */
export function taintChanges(desired: DesiredTaints, taints: readonly V1Taint[]): { add: V1Taint[]; remove: string[] } {
  const has = (key: string | undefined) => taints.some((taint) => taint.key === key);
  return { add: desired.present.filter((taint) => !has(taint.key)), remove: desired.absent.filter((key) => has(key)) };
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

/** The report's account of the taint: the policy, whether the node carries virtgate's taint, and any refusal. */
export function taintReport(config: TaintConfig, applied: boolean, refused: string | undefined): TaintReport {
  return { policy: config.policy, applied, ...(refused ? { refused } : {}) };
}
