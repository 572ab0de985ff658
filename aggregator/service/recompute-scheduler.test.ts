import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecomputeScheduler } from './recompute-scheduler.ts';

describe('RecomputeScheduler', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const timing = { debounceMs: 200, maxWaitMs: 1000, periodMs: 60_000 };

  it('turns a burst of changes into one run, after the burst goes quiet', () => {
    const run = vi.fn();
    const scheduler = new RecomputeScheduler(run, timing, () => Date.now());
    for (let i = 0; i < 5; i += 1) {
      scheduler.request();
      vi.advanceTimersByTime(50);
    }
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(199);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs no later than maxWait after the first change, however steady the trickle', () => {
    const run = vi.fn();
    const scheduler = new RecomputeScheduler(run, timing, () => Date.now());
    for (let elapsed = 0; elapsed < 3000; elapsed += 100) {
      scheduler.request();
      vi.advanceTimersByTime(100);
    }
    // A change every 100 ms never leaves 200 ms of quiet; maxWait (1 s) still gets runs through.
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(run.mock.calls.length).toBeLessThanOrEqual(3);
  });

  it('recomputes periodically without any change, and stops when told', () => {
    const run = vi.fn();
    const scheduler = new RecomputeScheduler(run, timing, () => Date.now());
    scheduler.start();
    vi.advanceTimersByTime(180_000);
    expect(run).toHaveBeenCalledTimes(3);
    scheduler.stop();
    scheduler.request();
    vi.advanceTimersByTime(180_000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('does not lose a change that arrives during a run', () => {
    const scheduler: RecomputeScheduler = new RecomputeScheduler(
      () => {
        if (calls++ === 0) scheduler.request();
      },
      timing,
      () => Date.now(),
    );
    let calls = 0;
    scheduler.request();
    vi.advanceTimersByTime(200);
    expect(calls).toBe(1);
    vi.advanceTimersByTime(200);
    expect(calls).toBe(2);
  });
});
