/**
 * How many cases a property test runs: VIRTGATE_FUZZ_RUNS raises the count for a deeper local
 * run. Anything but a positive integer is refused loudly: an empty or zero value would make the
 * property tests run no case at all and still pass.
 */
export function fuzzRuns(defaultRuns: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.VIRTGATE_FUZZ_RUNS;
  if (raw === undefined) return defaultRuns;
  if (!/^[1-9]\d{0,6}$/.test(raw.trim())) {
    throw new Error(`VIRTGATE_FUZZ_RUNS must be a positive integer (the number of cases per property test), got ${JSON.stringify(raw)}; unset it for the default of ${defaultRuns}`);
  }
  return Number(raw.trim());
}
