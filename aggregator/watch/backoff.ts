/**
 * Exponential backoff with full jitter (AWS's "full jitter"): after the n-th consecutive failure,
 * wait a uniformly random time in [0, min(max, base * 2^(n-1))). Jitter keeps many aggregators
 * (or many watches of one) from reconnecting to a recovering API server in step.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000 };

/** `failures` counts from 1; `random` is in [0, 1) (Math.random in production). */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

/** A server's Retry-After, when it gave one, wins over the computed delay (capped at max). */
export function retryDelay(failures: number, policy: BackoffPolicy, retryAfterSeconds: number | undefined, random: () => number = Math.random): number {
  if (retryAfterSeconds !== undefined) return Math.min(policy.maxMs, retryAfterSeconds * 1000);
  return backoffDelay(failures, policy, random);
}
