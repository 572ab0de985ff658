/** Order statistics of a sample (nearest-rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export const median = (values: readonly number[]) => percentile(values, 50);
export const p95 = (values: readonly number[]) => percentile(values, 95);

/** Runs `fn` `runs` times (after `warmup` unmeasured runs) and returns each duration in ms. */
export async function timeRuns(runs: number, fn: () => Promise<unknown>, warmup = 3): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const durations: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    durations.push(performance.now() - start);
  }
  return durations;
}
