import type { V1Taint } from '@kubernetes/client-node';
import type { NodeKeys } from '../../core/kube/names.ts';
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
