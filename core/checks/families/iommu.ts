import type { CheckFamily, ProbeContext } from '../family.ts';
import { describeRead, readHostDir } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import type { CheckOutcomeOf } from '../outcome.ts';
import type { CpuFamilyFacts } from './cpu.ts';
import { classifyPlatform } from '../host/platform-class.ts';
import type { PlatformFamilyFacts } from './platform.ts';

/** IOMMU groups and units: informational, only device passthrough needs them. */
const IDS = ['iommu'] as const;
type IommuCheckId = (typeof IDS)[number];

export interface IommuFacts {
  /** False when sys/kernel/iommu_groups does not exist: a kernel without IOMMU support, or no sysfs under the host root. */
  present: boolean;
  groups: number;
  units: number;
}

export interface IommuFamilyFacts {
  iommu: Observation<IommuFacts>;
}

async function probeIommu(hostRoot: string): Promise<Observation<IommuFacts>> {
  const [groups, units] = await Promise.all([
    readHostDir(hostRoot, 'sys/kernel/iommu_groups'),
    readHostDir(hostRoot, 'sys/class/iommu'),
  ]);
  if (groups.state === 'unreadable') return { state: 'unknown', reason: describeRead('sys/kernel/iommu_groups', groups) };
  return {
    state: 'ok',
    value: {
      present: groups.state === 'ok',
      groups: groups.state === 'ok' ? groups.entries.length : 0,
      units: units.state === 'ok' ? units.entries.length : 0,
    },
  };
}

function evaluateIommu(iommu: Observation<IommuFacts>, machine: CpuFamilyFacts & PlatformFamilyFacts): CheckOutcomeOf<IommuCheckId> {
  const id = 'iommu';
  if (iommu.state === 'unknown') return { id, status: 'error', message: iommu.reason };
  const observed = { groups: iommu.value.groups, units: iommu.value.units };
  // Nothing to look at is not "IOMMU off": an empty host root must not pass.
  if (!iommu.value.present) return { id, status: 'skip', message: 'sys/kernel/iommu_groups does not exist: no IOMMU support in this kernel, or no sysfs under the host root', observed };
  if (iommu.value.groups > 0) {
    return { id, status: 'pass', message: `IOMMU on, ${iommu.value.groups} groups: device passthrough is possible`, observed };
  }
  return {
    id,
    status: 'pass',
    message: 'IOMMU off; ordinary VMs do not use it (only device passthrough needs it)',
    // A VM has no firmware switch for this: its hypervisor must give it a virtual IOMMU.
    hint:
      classifyPlatform(machine.platform, machine.cpu).kind === 'virtual-machine'
        ? 'Only for passthrough: give this VM a virtual IOMMU on its hypervisor (QEMU -device intel-iommu) and boot with intel_iommu=on or amd_iommu=on.'
        : 'Only for passthrough: enable VT-d/AMD-Vi in the firmware and boot with intel_iommu=on or amd_iommu=on.',
    observed,
  };
}

export const iommuFamily = {
  ids: IDS,
  probe: async ({ hostRoot }: ProbeContext): Promise<IommuFamilyFacts> => ({ iommu: await probeIommu(hostRoot) }),
  evaluate: (facts: IommuFamilyFacts & CpuFamilyFacts & PlatformFamilyFacts) => [evaluateIommu(facts.iommu, facts)],
  example: { iommu: { state: 'ok', value: { present: true, groups: 40, units: 2 } } } satisfies IommuFamilyFacts,
} satisfies CheckFamily;
