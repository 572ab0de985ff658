/**
 * Elapsed time in milliseconds, to a tenth, from the monotonic clock. Not `performance.now()`:
 * the global `performance` loads perf_hooks (a dozen modules) on first use, a millisecond of
 * `virtgate check`'s start-up for two timings.
 */
export function startStopwatch(): () => number {
  const started = process.hrtime.bigint();
  return () => Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
}
