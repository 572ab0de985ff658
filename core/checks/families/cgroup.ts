import type { CheckFamily, ProbeContext } from '../family.ts';
import { describeRead, readHostDir, readHostFile } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import type { CheckOutcomeOf } from '../outcome.ts';

/** The cgroup version and the controllers virt-launcher needs. */
const IDS = ['cgroup'] as const;
type CgroupCheckId = (typeof IDS)[number];

export interface CgroupFacts {
  version: 1 | 2;
  controllers: string[];
}

export interface CgroupFamilyFacts {
  cgroup: Observation<CgroupFacts>;
}

const V1_CONTROLLERS = ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'blkio', 'pids', 'freezer', 'hugetlb'];

/** cgroup v2 when sys/fs/cgroup/cgroup.controllers exists; otherwise the v1 controller mounts. */
async function probeCgroup(hostRoot: string): Promise<Observation<CgroupFacts>> {
  const v2 = await readHostFile(hostRoot, 'sys/fs/cgroup/cgroup.controllers', 4096);
  if (v2.state === 'ok') {
    return { state: 'ok', value: { version: 2, controllers: v2.text.trim().split(/\s+/).filter(Boolean) } };
  }
  if (v2.state === 'unreadable') return { state: 'unknown', reason: describeRead('sys/fs/cgroup/cgroup.controllers', v2) };
  const dir = await readHostDir(hostRoot, 'sys/fs/cgroup');
  if (dir.state !== 'ok') return { state: 'unknown', reason: describeRead('sys/fs/cgroup', dir) };
  // v1 mounts can be combined (cpu,cpuacct); split them so each controller is named once.
  const present = new Set(dir.entries.flatMap((entry) => entry.split(',')));
  return { state: 'ok', value: { version: 1, controllers: V1_CONTROLLERS.filter((c) => present.has(c)) } };
}

const REQUIRED_CONTROLLERS: Record<1 | 2, string[]> = {
  1: ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'blkio'],
  2: ['cpu', 'cpuset', 'memory'],
};

function evaluateCgroup(cgroup: Observation<CgroupFacts>): CheckOutcomeOf<CgroupCheckId> {
  const id = 'cgroup';
  if (cgroup.state === 'unknown') return { id, status: 'error', message: cgroup.reason };
  const { version, controllers } = cgroup.value;
  const missing = REQUIRED_CONTROLLERS[version].filter((c) => !controllers.includes(c));
  const observed = { version, controllers, missing };
  if (missing.length > 0) {
    return {
      id,
      status: 'fail',
      message: `cgroup v${version} lacks the ${missing.join(', ')} controller${missing.length > 1 ? 's' : ''}`,
      hint: 'Enable the controllers on the kernel command line (cgroup_enable=...) and in the init system.',
      observed,
    };
  }
  if (version === 1) {
    return {
      id,
      status: 'warn',
      message: 'cgroup v1: Kubernetes 1.35 and later kubelets refuse to start on v1 unless failCgroupV1 is false',
      hint: 'Move the node image to cgroup v2 (systemd.unified_cgroup_hierarchy=1).',
      observed,
    };
  }
  return { id, status: 'pass', message: `cgroup v2 with ${REQUIRED_CONTROLLERS[2].join(', ')}`, observed };
}

export const cgroupFamily = {
  ids: IDS,
  probe: async ({ hostRoot }: ProbeContext): Promise<CgroupFamilyFacts> => ({ cgroup: await probeCgroup(hostRoot) }),
  evaluate: (facts: CgroupFamilyFacts) => [evaluateCgroup(facts.cgroup)],
  example: { cgroup: { state: 'ok', value: { version: 2, controllers: ['cpuset', 'cpu', 'io', 'memory', 'pids'] } } } satisfies CgroupFamilyFacts,
} satisfies CheckFamily;
