import type { Policy } from './policy.ts';
import { type CheckId, FAMILIES, type HostFacts } from './registry.ts';
import type { CheckOutcome, Tier, Verdict } from './verdict.ts';
import type { VhvFacts } from './families/vhv.ts';
import { keepHonestCauses, rootCause } from './consequences.ts';

/** The checks that decide the tier; every other `fail` only blocks `ready`. */
export const TIER_CHECKS: readonly CheckId[] = ['cpu.virtualization', 'dev.kvm', 'dev.tun'];

/** Facts + policy → verdict: every family's evaluation, in registry order. Pure: no clock, no I/O. */
export function evaluate(host: HostFacts, vhv: VhvFacts, policy: Policy): Verdict {
  const facts = { ...host, vhv };
  const checks = FAMILIES.flatMap((family): readonly CheckOutcome[] => family.evaluate(facts, policy));
  return decide(keepHonestCauses(checks), policy);
}

/** Derives tier and ready from check results. */
export function decide(checks: CheckOutcome[], policy: Policy): Verdict {
  const status = (id: CheckId) => checks.find((check) => check.id === id)?.status;
  const passes = (id: CheckId) => status(id) === 'pass';
  const tier: Tier =
    passes('cpu.virtualization') && passes('dev.kvm') && passes('dev.tun')
      ? 'hardware'
      : passes('dev.tun')
        ? 'emulation'
        : 'none';
  const conclusive = TIER_CHECKS.every((id) => status(id) !== 'error');
  const tierQualifies = tier === 'hardware' || (tier === 'emulation' && policy.allowEmulation);
  // A failure that follows from a tier check is already counted in the tier: it does not block on its own.
  const blockingFailure = checks.some((check) => check.status === 'fail' && !TIER_CHECKS.includes(rootCause(checks, check.id)));
  return { tier, ready: tierQualifies && !blockingFailure, conclusive, checks };
}
