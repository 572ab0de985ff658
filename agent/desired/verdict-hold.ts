import type { Tier, Verdict } from '../../core/checks/verdict.ts';

export interface PublishedVerdict {
  tier: Tier;
  ready: boolean;
}

export interface EffectiveVerdict extends PublishedVerdict {
  /** True when the probe could not tell and the previously published verdict is kept. */
  held: boolean;
  /** No verdict can be published yet: the first probe was inconclusive. */
  undecided: boolean;
}

/**
 * No churn: a probe `error` must never flip a published verdict. When a check that decides the
 * tier could not run, keep what was published before (labels survive restarts, so this also
 * holds across a rolling update).
 */
export function holdVerdict(verdict: Verdict, previous: PublishedVerdict | undefined): EffectiveVerdict {
  if (verdict.conclusive) return { tier: verdict.tier, ready: verdict.ready, held: false, undecided: false };
  if (previous) return { ...previous, held: true, undecided: false };
  return { tier: verdict.tier, ready: false, held: false, undecided: true };
}
