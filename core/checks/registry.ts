import { cgroupFamily } from './families/cgroup.ts';
import { confidentialFamily } from './families/confidential.ts';
import { cpuFamily } from './families/cpu.ts';
import { devicesFamily } from './families/devices.ts';
import type { ProbeContext } from './family.ts';
import { hugepagesFamily } from './families/hugepages.ts';
import { iommuFamily } from './families/iommu.ts';
import { kernelFamily } from './families/kernel.ts';
import { kvmRunFamily } from './families/kvm-run.ts';
import { modulesFamily } from './families/modules.ts';
import { osFamily } from './families/os.ts';
import { passthroughFamily } from './families/passthrough.ts';
import { platformFamily } from './families/platform.ts';
import { qemuAccessFamily } from './families/qemu-access.ts';
import { vhvFamily } from './families/vhv.ts';

/**
 * Every check family, in the order their checks appear in a verdict. Adding a check is one
 * family file and one line here; the ids, the facts type, probing and evaluation follow.
 */
export const FAMILIES = [
  cpuFamily,
  devicesFamily,
  kvmRunFamily,
  qemuAccessFamily,
  modulesFamily,
  platformFamily,
  kernelFamily,
  osFamily,
  cgroupFamily,
  iommuFamily,
  passthroughFamily,
  vhvFamily,
  hugepagesFamily,
  confidentialFamily,
] as const;

type Family = (typeof FAMILIES)[number];

/** Stable check ids: the JSON output, the NodeValidation report and the metrics use them. */
export type CheckId = Family['ids'][number];
export const CHECK_IDS: readonly CheckId[] = FAMILIES.flatMap((family): readonly CheckId[] => family.ids);

type ProbedFacts<F> = F extends { probe: (context: ProbeContext) => Promise<infer Facts> } ? Facts : never;
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * Facts: what the host probes saw, as plain JSON-serialisable data; the union of what every
 * family's probe returns. Nothing here decides pass or fail.
 */
export type HostFacts = Flat<{ hostRoot: string } & Intersection<ProbedFacts<Family>>>;

/** A healthy bare-metal Intel host as facts: every family's `example`, for tests to start from. */
export function exampleFacts(hostRoot = '/'): HostFacts {
  return Object.assign({ hostRoot }, ...FAMILIES.map((family) => ('example' in family ? structuredClone(family.example) : {}))) as HostFacts;
}
