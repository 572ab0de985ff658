import type { JsonObject } from '../json.ts';

/**
 * What each status promises (docs/check.md, "What a status means"): `pass` found what it looks
 * for, and its message reports no problem; `warn` works with a risk or a slower path; `fail` a
 * problem that stops VMs (or, for tier checks, KVM); `skip` did not look, or found nothing to look
 * at, and says nothing either way; `error` the probe itself could not tell (EIO, timeout,
 * unparseable output). `error` is not a failure and must never flip a published verdict by itself.
 */
export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'skip', 'error'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** One check's outcome. A family names its own ids; `CheckOutcome` (verdict.ts) is the union over all families. */
export interface CheckOutcomeOf<Id extends string> {
  id: Id;
  status: CheckStatus;
  /** One line a platform engineer can act on. */
  message: string;
  /** The remedy, when there is one. */
  hint?: string;
  /** What the probe saw, for support cases. */
  observed?: JsonObject;
  /**
   * The id of the check whose failure this result is a consequence of (no /dev/kvm → kvm.run
   * failing at open). Set only while that check does not pass; the remedy is the cause's.
   */
  followsFrom?: string;
}
