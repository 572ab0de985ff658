import type { V1Node } from '@kubernetes/client-node';
import type { Tier, Verdict } from '../../core/checks/verdict.ts';
import type { NodeKeys } from '../../core/kube/names.ts';
import { parseOwnership } from '../../core/kube/ownership.ts';

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

/** The verdict the node's labels carry, if virtgate put them there (the ownership annotation says so). */
export function publishedVerdict(node: V1Node, keys: NodeKeys): PublishedVerdict | undefined {
  const labels = node.metadata?.labels ?? {};
  const ready = labels[keys.labels.ready];
  const tier = labels[keys.labels.tier];
  const owned = parseOwnership(node.metadata?.annotations?.[keys.ownershipAnnotation]).labels.includes(keys.labels.ready);
  if (!owned || (ready !== 'true' && ready !== 'false')) return undefined;
  if (tier !== 'hardware' && tier !== 'emulation' && tier !== 'none') return undefined;
  return { ready: ready === 'true', tier };
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
