import type { GuestRunOptions } from '../kvm/run-guest.ts';
import type { Policy } from './policy.ts';
import type { CheckOutcomeOf } from './outcome.ts';

/**
 * Whether to run the tiny KVM guest (kvm-run.ts); on by default, off with --no-kvm-run. The
 * other fields are test seams: `devicePath` runs the guest on that node whatever the host root.
 */
export interface KvmRunSettings extends Partial<Omit<GuestRunOptions, 'devicePath'>> {
  enabled: boolean;
  devicePath?: string;
}

/** What every host probe gets: the host root and kvm.run's settings. */
export interface ProbeContext {
  hostRoot: string;
  kvmRun?: KvmRunSettings;
}

/**
 * One family of checks, in one file: its check ids, its probe and its evaluation.
 * - `probe` does I/O only, under the host root, and returns the family's facts: an object whose
 *   keys become keys of `HostFacts` (registry.ts). virt-host-validate has none: it is a tool the
 *   caller runs or leaves out, and its facts arrive beside the host's.
 * - `evaluate` is pure. It receives all facts (its parameter type names the ones it reads, which
 *   may belong to other families) and returns one result per id, in the order of `ids`.
 * - `example` (every family with a probe has one): what its probe returns on a healthy bare-metal
 *   Intel host. Tests build a complete HostFacts from the examples (`exampleFacts`), so adding a
 *   family never edits another family's tests.
 * - `synchronousProbe`: the probe does its reads on the main thread (sysfs walks, where a thread-pool
 *   round trip costs more than the read). It runs once the other probes have finished, so it
 *   neither holds back their I/O nor shares the CPU with the thread pool midway (probe-host.ts).
 */
export interface CheckFamily {
  readonly ids: readonly string[];
  readonly probe?: (context: ProbeContext) => Promise<object>;
  readonly synchronousProbe?: true;
  readonly example?: object;
  // `never`: any parameter type fits here; the registry's call checks each against the real facts.
  readonly evaluate: (facts: never, policy: Policy) => ReadonlyArray<CheckOutcomeOf<string>>;
}
