import { describe, expect, it } from 'vitest';
import { Backoff, backoffDelay, retryAfterOf, retryDelay } from './backoff.ts';

const policy = { baseMs: 500, maxMs: 30_000 };

describe('backoffDelay', () => {
  it('doubles the ceiling with each failure, up to the cap', () => {
    const almostOne = () => 0.999_999;
    expect(backoffDelay(1, policy, almostOne)).toBe(499);
    expect(backoffDelay(2, policy, almostOne)).toBe(999);
    expect(backoffDelay(4, policy, almostOne)).toBe(3999);
    expect(backoffDelay(7, policy, almostOne)).toBe(29_999);
    expect(backoffDelay(1000, policy, almostOne)).toBe(29_999);
  });

  it('is fully jittered: anywhere from zero to the ceiling', () => {
    expect(backoffDelay(5, policy, () => 0)).toBe(0);
    expect(backoffDelay(5, policy, () => 0.5)).toBe(4000);
  });

  it('treats zero or negative failure counts as the first failure', () => {
    expect(backoffDelay(0, policy, () => 0.5)).toBe(250);
    expect(backoffDelay(-3, policy, () => 0.5)).toBe(250);
  });
});

describe('retryDelay', () => {
  it('honours Retry-After, capped at the maximum', () => {
    expect(retryDelay(1, policy, 7)).toBe(7000);
    expect(retryDelay(1, policy, 3600)).toBe(30_000);
  });

  it('falls back to the jittered backoff without Retry-After', () => {
    expect(retryDelay(3, policy, undefined, () => 0.5)).toBe(1000);
  });
});

describe('Backoff', () => {
  it('grows with consecutive failures and starts over after a success', () => {
    const backoff = new Backoff(policy, () => 0.999_999);
    expect([backoff.fail(), backoff.fail(), backoff.fail()]).toEqual([499, 999, 1999]);
    expect(backoff.failures).toBe(3);
    backoff.succeed();
    expect(backoff.failures).toBe(0);
    expect(backoff.fail()).toBe(499);
  });

  it('honours Retry-After up to maxRetryAfterMs when that is set', () => {
    const backoff = new Backoff({ ...policy, maxRetryAfterMs: Infinity });
    expect(backoff.fail(120)).toBe(120_000);
    expect(backoff.failures).toBe(1);
  });
});

describe('retryAfterOf', () => {
  /** Shaped as client-node's ApiException: the status in `code`, the response headers alongside. */
  const apiError = (headers: Record<string, string>) => Object.assign(new Error('HTTP 429'), { code: 429, headers });

  it("reads a 429's Retry-After header in ms, capped", () => {
    expect(retryAfterOf(apiError({ 'Retry-After': '3' }), 30_000)).toBe(3000);
    expect(retryAfterOf(apiError({ 'retry-after': '600' }), 30_000)).toBe(30_000);
  });

  it('is undefined without one', () => {
    expect(retryAfterOf(apiError({}), 30_000)).toBeUndefined();
    expect(retryAfterOf(new Error('connection refused'), 30_000)).toBeUndefined();
  });
});
