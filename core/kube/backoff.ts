import { apiFailure } from './api-error.ts';

/**
 * Exponential backoff with full jitter (AWS's "full jitter"): after the n-th consecutive failure,
 * wait a uniformly random time in [0, min(max, base * 2^(n-1))). Jitter keeps many agents or
 * aggregators (or many watches of one) from coming back to a recovering API server in step.
 * Every reconnect and retry timer in virtgate takes its delay from here (the watch loop, the
 * agent's publish retries, the server-version read); loops that simply retry one call use p-retry
 * through retry.ts, with the same policy shape (`retryPolicy`) and the same Retry-After rule.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** The longest Retry-After honoured as given; longer ones are cut to this (default: maxMs). */
  maxRetryAfterMs?: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000 };

/** `failures` counts from 1; `random` is in [0, 1) (Math.random in production). */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

/** The wait a 429/503 Retry-After asks for, in ms, cut to `capMs`; undefined when the error carries none. */
export function retryAfterOf(error: unknown, capMs: number): number | undefined {
  return retryAfterMs(apiFailure(error).retryAfterSeconds, capMs);
}

function retryAfterMs(retryAfterSeconds: number | undefined, capMs: number): number | undefined {
  return retryAfterSeconds === undefined ? undefined : Math.min(capMs, retryAfterSeconds * 1000);
}

/** A server's Retry-After, when it gave one, wins over the computed delay (capped). */
export function retryDelay(failures: number, policy: BackoffPolicy, retryAfterSeconds: number | undefined, random: () => number = Math.random): number {
  return retryAfterMs(retryAfterSeconds, policy.maxRetryAfterMs ?? policy.maxMs) ?? backoffDelay(failures, policy, random);
}

/** The consecutive-failure count behind a retry timer: `fail` says how long to wait, `succeed` starts over. */
export class Backoff {
  private readonly policy: BackoffPolicy;
  private readonly random: () => number;
  private count = 0;

  constructor(policy: BackoffPolicy, random: () => number = Math.random) {
    this.policy = policy;
    this.random = random;
  }

  /** Consecutive failures so far. */
  get failures(): number {
    return this.count;
  }

  /** One more failure: the delay before the next attempt, the server's Retry-After honoured. */
  fail(retryAfterSeconds?: number): number {
    this.count += 1;
    return retryDelay(this.count, this.policy, retryAfterSeconds, this.random);
  }

  succeed(): void {
    this.count = 0;
  }
}
