import type { CheckId } from './registry.ts';
import type { CheckOutcomeOf } from './outcome.ts';

export type CheckOutcome = CheckOutcomeOf<CheckId>;

export { TIERS, type Tier } from './tiers.ts';
import type { Tier } from './tiers.ts';

export interface Verdict {
  tier: Tier;
  ready: boolean;
  /** False when a check that decides the tier ended in `error`: the tier is a guess. */
  conclusive: boolean;
  checks: CheckOutcome[];
}
