/** Files in a fixture host root: written, replaced or deleted, never outside the root. */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes (string) or deletes (null) host-relative files under `root`. An existing entry at the
 * path is removed first, so a file can replace a directory, a FIFO or a device node.
 */
export async function writeHostFiles(root: string, files: Record<string, string | null>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const full = insideRoot(root, relative);
    await rm(full, { recursive: true, force: true });
    if (content === null) continue;
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

export function insideRoot(root: string, relative: string): string {
  const full = path.resolve(root, relative);
  if (full === path.resolve(root) || !full.startsWith(`${path.resolve(root)}${path.sep}`)) {
    throw new Error(`fixture host: path "${relative}" is not inside ${root}`);
  }
  return full;
}

/** sysfs shows each DMI string with a newline; an empty one is an empty line. */
export function dmiFiles(dmi: { sysVendor: string; productName: string; productVersion: string; biosVendor: string }): Record<string, string> {
  return {
    'sys/class/dmi/id/sys_vendor': `${dmi.sysVendor}\n`,
    'sys/class/dmi/id/product_name': `${dmi.productName}\n`,
    'sys/class/dmi/id/product_version': `${dmi.productVersion}\n`,
    'sys/class/dmi/id/bios_vendor': `${dmi.biosVendor}\n`,
  };
}

/**
 * proc/meminfo of a host with `totalKiB` usable memory (MemTotal: the RAM less what the firmware and
 * kernel keep) and no hugepages reserved.
 */
export function meminfoFiles(totalKiB: number): Record<string, string> {
  const line = (key: string, value: number, unit = ' kB') => `${`${key}:`.padEnd(16)}${String(value).padStart(8)}${unit}`;
  const free = Math.round(totalKiB * 0.9);
  const lines = [
    line('MemTotal', totalKiB),
    line('MemFree', free),
    line('MemAvailable', Math.round(totalKiB * 0.94)),
    line('Buffers', 4096),
    line('Cached', Math.round(totalKiB * 0.04)),
    line('SwapTotal', 0),
    line('SwapFree', 0),
    line('HugePages_Total', 0, ''),
    line('HugePages_Free', 0, ''),
    line('HugePages_Rsvd', 0, ''),
    line('HugePages_Surp', 0, ''),
    line('Hugepagesize', 2048),
    line('Hugetlb', 0),
  ];
  return { 'proc/meminfo': `${lines.join('\n')}\n` };
}

/** sysfs CPU topology: one package, one thread per core, as the profiles' cpuinfo says (arm64's cpuinfo names neither). */
export function cpuTopologyFiles(cpuinfo: string): Record<string, string> {
  const processors = cpuinfo.split('\n').filter((line) => /^processor\s*:/.test(line)).length;
  return Object.fromEntries(
    Array.from({ length: processors }, (_, n) => [
      [`sys/devices/system/cpu/cpu${n}/topology/physical_package_id`, '0\n'],
      [`sys/devices/system/cpu/cpu${n}/topology/core_id`, `${n}\n`],
    ]).flat(),
  );
}

export function cgroupFiles(version: 'v1' | 'v2'): Record<string, string> {
  if (version === 'v2') {
    return {
      'sys/fs/cgroup/cgroup.controllers': 'cpuset cpu io memory hugetlb pids rdma misc\n',
      'sys/fs/cgroup/cgroup.subtree_control': 'cpuset cpu io memory pids\n',
    };
  }
  // A systemd hybrid tree: one directory per v1 mount, combined mounts named as the kernel does.
  const mounts = ['blkio', 'cpu,cpuacct', 'cpuset', 'devices', 'freezer', 'hugetlb', 'memory', 'net_cls,net_prio', 'perf_event', 'pids', 'rdma', 'misc', 'systemd'];
  return {
    ...Object.fromEntries(mounts.map((mount) => [`sys/fs/cgroup/${mount}/cgroup.procs`, '1\n'])),
    'sys/fs/cgroup/unified/cgroup.controllers': '\n',
  };
}
