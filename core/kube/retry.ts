import pRetry from 'p-retry';
import { isConflict } from './api-error.ts';
import { type BackoffPolicy, retryAfterOf } from './backoff.ts';

export interface RetryOptions {
  retries: number;
  /** The first retry waits minTimeout to 2 × minTimeout (randomised), doubling up to maxTimeout. */
  minTimeout: number;
  maxTimeout: number;
  /** Whether this failure is worth another attempt. */
  shouldRetry: (error: unknown) => boolean;
  onRetry?: (attempt: number, error: unknown) => void;
}

/**
 * Retries one API call (or one read-decide-write step) with p-retry's jittered exponential
 * backoff. A 429/503 Retry-After is honoured: the retry waits at least that long (up to
 * maxTimeout), never the shorter computed delay.
 */
export function retryApiCall<T>(call: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  return pRetry(call, {
    retries: options.retries,
    minTimeout: options.minTimeout,
    maxTimeout: options.maxTimeout,
    factor: 2,
    randomize: true,
    shouldRetry: ({ error }) => options.shouldRetry(error),
    onFailedAttempt: async ({ error, attemptNumber, retriesLeft, retryDelay }) => {
      if (retriesLeft === 0 || !options.shouldRetry(error)) return;
      options.onRetry?.(attemptNumber, error);
      // p-retry has already chosen `retryDelay`; wait the rest of what the server asked for.
      const extra = (retryAfterOf(error, options.maxTimeout) ?? 0) - retryDelay;
      if (extra > 0) await new Promise((resolve) => setTimeout(resolve, extra));
    },
  });
}

/** A backoff policy (core/kube/backoff.ts) as p-retry options: the first retry waits base to 2 × base, doubling up to max. */
export function retryPolicy(backoff: BackoffPolicy, retries: number, shouldRetry: (error: unknown) => boolean): RetryOptions {
  return { retries, minTimeout: backoff.baseMs, maxTimeout: backoff.maxMs, shouldRetry };
}

/** 409: someone changed the object since it was read. `step` must read again before it decides again. */
export const CONFLICT_RETRY: RetryOptions = retryPolicy({ baseMs: 100, maxMs: 2000 }, 5, isConflict);

/** Runs a read-decide-write step again on 409 Conflict, a few times, with jitter. */
export function retryOnConflict<T>(step: (attempt: number) => Promise<T>, onRetry?: (attempt: number) => void): Promise<T> {
  return retryApiCall(step, { ...CONFLICT_RETRY, ...(onRetry ? { onRetry } : {}) });
}
