import { describe, expect, it } from 'vitest';
import { fuzzRuns } from './fuzz-runs.ts';

describe('VIRTGATE_FUZZ_RUNS', () => {
  it('defaults when unset and takes a positive integer', () => {
    expect(fuzzRuns(150, {})).toBe(150);
    expect(fuzzRuns(150, { VIRTGATE_FUZZ_RUNS: '2000' })).toBe(2000);
  });

  it.each(['', ' ', '0', '-5', '1.5', '1e3', 'many', '00'])('refuses %j instead of running zero cases', (value) => {
    expect(() => fuzzRuns(150, { VIRTGATE_FUZZ_RUNS: value })).toThrow(/VIRTGATE_FUZZ_RUNS must be a positive integer/);
  });
});
