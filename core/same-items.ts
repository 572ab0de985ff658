/**
 * Whether `a` holds the same items (by identity), in the same order, as `b` from index `from` up to
 * (not including) `to`: the whole of `b` unless a range is given, so a caller can compare with part
 * of a list without copying it out.
 */
export function sameItems<T>(a: readonly T[], b: readonly T[], from = 0, to = b.length): boolean {
  if (a.length !== to - from) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[from + i]) return false;
  return true;
}
