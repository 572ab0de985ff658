import type { CheckId } from './registry.ts';
import type { CheckOutcome } from './verdict.ts';

/**
 * Consequences: a result that names, in `followsFrom`, the check whose failure it repeats (no
 * /dev/kvm → kvm.run failing at open). Families set the link from facts; this keeps it honest.
 */

/** Drops a `followsFrom` whose cause is not in the list or passes: a consequence needs a cause that did not pass. */
export function keepHonestCauses(checks: readonly CheckOutcome[]): CheckOutcome[] {
  const status = new Map(checks.map((check) => [check.id as string, check.status]));
  return checks.map((check) => {
    if (check.followsFrom === undefined) return check;
    const cause = status.get(check.followsFrom);
    if (cause !== undefined && cause !== 'pass' && cause !== 'skip' && check.followsFrom !== check.id) return check;
    const { followsFrom: _dropped, ...own } = check;
    return own;
  });
}

/** The first check of the chain `followsFrom` leads to (itself when it follows from nothing); cycles stop where they close. */
export function rootCause(checks: readonly CheckOutcome[], id: CheckId): CheckId {
  const byId = new Map(checks.map((check) => [check.id, check]));
  const seen = new Set<CheckId>([id]);
  let current = id;
  for (;;) {
    const next = byId.get(current)?.followsFrom as CheckId | undefined;
    if (next === undefined || seen.has(next) || !byId.has(next)) return current;
    seen.add(next);
    current = next;
  }
}
