import type { JsonObject } from '../json.ts';

/**
 * `error` means the probe itself could not tell (EIO, timeout, unparseable output).
 * It is not a failure and must never flip a published verdict by itself.
 */
export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'skip', 'error'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** One check's result. A family names its own ids; `CheckResult` (verdict.ts) is the union over all families. */
export interface CheckResultOf<Id extends string> {
  id: Id;
  status: CheckStatus;
  /** One line a platform engineer can act on. */
  message: string;
  /** The remedy, when there is one. */
  hint?: string;
  /** What the probe saw, for support cases. */
  observed?: JsonObject;
}
