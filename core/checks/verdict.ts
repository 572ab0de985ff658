import type { CheckId } from './registry.ts';
import type { CheckResultOf } from './result.ts';

export type CheckResult = CheckResultOf<CheckId>;

export const TIERS = ['hardware', 'emulation', 'none'] as const;
export type Tier = (typeof TIERS)[number];

export interface Verdict {
  tier: Tier;
  ready: boolean;
  /** False when a check that decides the tier ended in `error`: the tier is a guess. */
  conclusive: boolean;
  checks: CheckResult[];
}
