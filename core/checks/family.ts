import type { GuestRunOptions } from '../kvm/run-guest.ts';
import type { Policy } from './policy.ts';
import type { CheckOutcomeOf, CheckStatus } from './outcome.ts';
import type { VerdictReport } from '../report/build.ts';

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

/** A check's status in this verdict, by id (any family's), or undefined when it did not run. */
export type StatusOf = (id: string) => CheckStatus | undefined;

/** A Node label a family owns, `<prefix>/<name>`, as the docs' label table shows it. */
export interface NodeLabel {
  readonly name: string;
  /** The values it takes. */
  readonly values: string;
  /** What it tells a VM's nodeSelector. */
  readonly meaning: string;
}

/**
 * A label's value from this host: the string to write; `undefined` keeps the node's current value
 * (the probe could not tell, and the agent never writes a guess); `null` means no label.
 */
export type LabelValue = string | null | undefined;

/** The Node labels the family owns, and their values (one entry per declared name, every time). */
export interface LabelsDeclaration {
  readonly declared: readonly NodeLabel[];
  // `never`, as for evaluate: the registry's call checks the parameter type against the real facts.
  readonly values: (facts: never, status: StatusOf) => Readonly<Record<string, LabelValue>>;
}

/** The report fields the family owns: their names, and how its facts fill them (a field left out is not known). */
export interface ReportDeclaration {
  readonly fields: readonly (keyof VerdictReport)[];
  readonly build: (facts: never, status: StatusOf) => Partial<VerdictReport>;
}

/**
 * One family of checks, in one file: its check ids, its probe, its evaluation and what it publishes.
 * - `probe` does I/O only, under the host root, and returns the family's facts: an object whose
 *   keys become keys of `HostFacts` (registry.ts). virt-host-validate has none: it is a tool the
 *   caller runs or leaves out, and its facts arrive beside the host's.
 * - `evaluate` is pure. It receives all facts (its parameter type names the ones it reads, which
 *   may belong to other families) and returns one result per id, in the order of `ids`.
 * - `example` (every family with a probe has one): what its probe returns on a healthy bare-metal
 *   Intel host. Tests build a complete HostFacts from the examples (`exampleFacts`), so adding a
 *   family never edits another family's tests.
 * - `labels` and `report`: the Node labels and the NodeValidation `status` fields the family owns;
 *   the agent writes them from here (agent/desired/labels.ts, core/report/build.ts) and the docs'
 *   tables are generated from them. Each label and field has exactly one owner (registry.test.ts).
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
  readonly labels?: LabelsDeclaration;
  readonly report?: ReportDeclaration;
}
