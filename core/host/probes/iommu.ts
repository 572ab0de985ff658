import type { IommuFacts, Observation } from '../facts.ts';
import { describeRead, readHostDir } from '../files.ts';

export async function probeIommu(hostRoot: string): Promise<Observation<IommuFacts>> {
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
