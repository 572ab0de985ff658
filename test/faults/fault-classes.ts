/**
 * Every class of fault the ledger counts: whether it is a cluster fault (a component killed, cut
 * off, slowed, conflicted or corrupted: its recovery is timed against a bound) or an input case
 * (bad flags, fuzz inputs, hostile objects, broken files), the injections (or inputs) a run must
 * hold, and the test file that injects it. When that file ran, a class below its minimum (or absent)
 * fails the run, so an empty or shrunken ledger cannot pass. Each number is the test's count
 * written again on purpose: read from the test, it would shrink with it.
 */
export type FaultGroup = 'cluster' | 'input';

export interface FaultClass {
  group: FaultGroup;
  /**
   * What a run of its file means to inject (cluster faults: rows, one per injection) or try (input
   * cases: inputs). Equal to the test's own count, not below it, so a test that shrinks fails the
   * run; only a count the test cannot fix (chance conflicts, VIRTGATE_FUZZ_RUNS) may exceed it.
   */
  minimum: number;
  /** The test file that injects it, from the repository root. */
  file: string;
}

const RESTARTS = 'test/faults/restarts.test.ts';

export const FAULT_CLASSES: Readonly<Record<string, FaultClass>> = {
  // Cluster faults.
  'apiserver-kill': { group: 'cluster', minimum: 2, file: RESTARTS },
  'etcd-kill': { group: 'cluster', minimum: 1, file: RESTARTS },
  'etcd-graceful-stop': { group: 'cluster', minimum: 1, file: RESTARTS },
  'apiserver-slow': { group: 'cluster', minimum: 1, file: 'test/faults/slow-apiserver.test.ts' },
  'apiserver-429': { group: 'cluster', minimum: 1, file: 'test/faults/throttled.test.ts' },
  // One arranged 409 per taint change: 3 cycles of taint and lift.
  'conflict-409': { group: 'cluster', minimum: 6, file: 'test/faults/conflicts.test.ts' },
  // /dev/kvm removed, then restored: two host changes, each followed to the truth.
  'kvm-vanish': { group: 'cluster', minimum: 2, file: 'test/faults/verdict-hold.test.ts' },
  // /dev/kvm a symlink loop and proc/cpuinfo a FIFO, each undone on its own.
  'probe-error': { group: 'cluster', minimum: 2, file: 'test/faults/verdict-hold.test.ts' },
  'vhv-hang': { group: 'cluster', minimum: 1, file: 'test/faults/virt-host-validate.test.ts' },
  'vhv-flood': { group: 'cluster', minimum: 1, file: 'test/faults/virt-host-validate.test.ts' },
  'node-agent-pod-delete': { group: 'cluster', minimum: 1, file: 'test/node/faults.test.ts' },
  'node-kubelet-kill': { group: 'cluster', minimum: 1, file: 'test/node/faults.test.ts' },
  // Input cases.
  // Its argument rows.
  'bad-config': { group: 'input', minimum: 52, file: 'test/faults/bad-config.test.ts' },
  // The property tests' default run count (VIRTGATE_FUZZ_RUNS may raise it, never lower the floor).
  'fuzz-http': { group: 'input', minimum: 60, file: 'test/faults/http-fuzz.test.ts' },
  'hostile-object': { group: 'input', minimum: 10, file: 'test/faults/hostile-objects.test.ts' },
  'forged-report': { group: 'input', minimum: 5, file: 'test/faults/forged-reports.test.ts' },
  'host-file': { group: 'input', minimum: 16, file: 'test/faults/host-files.test.ts' },
  'vhv-broken': { group: 'input', minimum: 5, file: 'test/faults/virt-host-validate.test.ts' },
};
