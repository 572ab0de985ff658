import { describe, expect, it } from 'vitest';
import { retryApiCall, retryOnConflict, retryPolicy } from './retry.ts';

/** Errors shaped as client-node's ApiException: the HTTP status in `code`, headers alongside. */
function apiError(code: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`HTTP ${code}`), { code, headers });
}

describe('retryOnConflict', () => {
  it('runs the step again after a 409 and returns its result', async () => {
    let attempts = 0;
    const result = await retryOnConflict(async () => {
      attempts += 1;
      if (attempts < 3) throw apiError(409);
      return 'written';
    });
    expect(result).toBe('written');
    expect(attempts).toBe(3);
  });

  it('gives up at once on any other error', async () => {
    let attempts = 0;
    const failing = retryOnConflict(async () => {
      attempts += 1;
      throw apiError(403);
    });
    await expect(failing).rejects.toThrow('HTTP 403');
    expect(attempts).toBe(1);
  });
});

describe('retryApiCall', () => {
  it("waits at least the server's Retry-After before trying again", async () => {
    const attemptsAt: number[] = [];
    await retryApiCall(
      async () => {
        attemptsAt.push(performance.now());
        if (attemptsAt.length === 1) throw apiError(429, { 'retry-after': '1' });
      },
      { retries: 2, minTimeout: 10, maxTimeout: 5000, shouldRetry: () => true },
    );
    expect(attemptsAt).toHaveLength(2);
    expect(attemptsAt[1]! - attemptsAt[0]!).toBeGreaterThanOrEqual(990);
  });
});

describe('retryPolicy', () => {
  it('turns a backoff policy into p-retry options with the same base and cap', () => {
    const shouldRetry = () => true;
    expect(retryPolicy({ baseMs: 500, maxMs: 30_000 }, 2, shouldRetry)).toEqual({ retries: 2, minTimeout: 500, maxTimeout: 30_000, shouldRetry });
  });
});
