import { describe, expect, it } from 'vitest';
import { startStopwatch } from './stopwatch.ts';

describe('startStopwatch', () => {
  it('reads the milliseconds since it started, to a tenth, as a timer of the same span measures them', async () => {
    const elapsed = startStopwatch();
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const wall = Date.now() - before;
    const ms = elapsed();
    expect(Math.round(ms * 10)).toBe(ms * 10);
    expect(ms).toBeGreaterThanOrEqual(59);
    expect(Math.abs(ms - wall)).toBeLessThan(15);
  });
});
