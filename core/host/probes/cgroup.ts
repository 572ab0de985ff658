import type { CgroupFacts, Observation } from '../facts.ts';
import { describeRead, readHostDir, readHostFile } from '../files.ts';

const V1_CONTROLLERS = ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'blkio', 'pids', 'freezer', 'hugetlb'];

/** cgroup v2 when sys/fs/cgroup/cgroup.controllers exists; otherwise the v1 controller mounts. */
export async function probeCgroup(hostRoot: string): Promise<Observation<CgroupFacts>> {
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
