import type { CheckFamily, ProbeContext } from '../family.ts';
import { describeRead, readHostDir } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import type { CheckResultOf } from '../result.ts';

/** IOMMU groups and units: informational, only device passthrough needs them. */
const IDS = ['iommu'] as const;
type IommuCheckId = (typeof IDS)[number];

export interface IommuFacts {
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
      groups: groups.state === 'ok' ? groups.entries.length : 0,
      units: units.state === 'ok' ? units.entries.length : 0,
    },
  };
}

function evaluateIommu(iommu: Observation<IommuFacts>): CheckResultOf<IommuCheckId> {
  const id = 'iommu';
  if (iommu.state === 'unknown') return { id, status: 'error', message: iommu.reason };
  const observed = { groups: iommu.value.groups, units: iommu.value.units };
  if (iommu.value.groups > 0) {
    return { id, status: 'pass', message: `IOMMU on, ${iommu.value.groups} groups: device passthrough is possible`, observed };
  }
  return {
    id,
    status: 'pass',
    message: 'IOMMU off: device passthrough is unavailable (ordinary VMs do not need it)',
    hint: 'Only for passthrough: enable VT-d/AMD-Vi in the firmware and boot with intel_iommu=on or amd_iommu=on.',
    observed,
  };
}

export const iommuFamily = {
  ids: IDS,
  probe: async ({ hostRoot }: ProbeContext): Promise<IommuFamilyFacts> => ({ iommu: await probeIommu(hostRoot) }),
  evaluate: (facts: IommuFamilyFacts) => [evaluateIommu(facts.iommu)],
  example: { iommu: { state: 'ok', value: { groups: 40, units: 2 } } } satisfies IommuFamilyFacts,
} satisfies CheckFamily;
