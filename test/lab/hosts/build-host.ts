/**
 * Fixture host roots: realistic trees that virtgate probes through `--host-root`.
 *
 *   const host = await buildHost(await mkdtemp(...), 'intel-metal');
 *   probeHost(host.root);                                    // library
 *   node cli/main.ts check --json --no-vhv ...host.cliArgs   // CLI
 *
 * Each profile writes proc/cpuinfo, proc/meminfo, proc/sys/kernel/osrelease, proc/modules,
 * etc/os-release, sys/class/dmi/id, sys/devices/system/cpu (topology), sys/module, sys/fs/cgroup,
 * sys/kernel/iommu_groups and sys/class/iommu (the
 * passthrough profiles also a PCI tree, pci-tree.ts), and makes the device nodes with mknod. Every node is opened after it is made, and the build throws unless it behaves
 * as the profile says: a host root that is not what it claims would make every test built on it lie.
 *
 * The one fake: a test machine may or may not have a kvm or vhost-net driver, so a real 10:232 or
 * 10:238 node behaves differently from host to host. Where a profile needs KVM usable, dev/kvm is
 * `c 1 3` (/dev/null's driver) and dev/vhost-net is `c 1 5` (/dev/zero's); where it needs the KVM
 * driver absent, dev/kvm is a misc node (major 10) with a minor that /proc/misc shows no driver
 * serves, so open() gives ENODEV on every host. The host's sysfs names those numbers
 * (sys/class/misc/<name>/dev, device-nodes.ts), as a kernel names the ones it registered, so
 * virtgate checks and opens them with no option of its own; its kvm.run drives only a real 10:232
 * node under a host root, so it never runs on a stand-in. dev/net/tun is the real 10:200 node.
 *
 * Requires root with CAP_MKNOD on a filesystem mounted without `nodev`.
 *
 * The profiles are data in `profiles/`; device nodes are made in `device-nodes.ts`, files in
 * `host-files.ts`, and a running test changes devices with `device-mutations.ts`.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DeviceName } from '../../../core/checks/host/device-numbers.ts';
import type { Tier } from '../../../core/checks/verdict.ts';
import { MANIFEST, type Manifest } from './device-mutations.ts';
import { type DevicePlan, makeDevice, makeSevStandIn } from './device-nodes.ts';
import { cgroupFiles, cpuTopologyFiles, dmiFiles, insideRoot, meminfoFiles, writeHostFiles } from './host-files.ts';
import { writePciTree } from './pci-tree.ts';
import { procModules } from './profiles/proc-modules.ts';
import { HOST_PROFILES, type HostProfile, PROFILES } from './profiles/profiles.ts';

export { removeDevice, restoreDevice } from './device-mutations.ts';
export { writeHostFiles } from './host-files.ts';
export { HOST_PROFILES, type HostProfile } from './profiles/profiles.ts';

export interface BuildHostOptions {
  /**
   * Host-relative paths (`proc/cpuinfo`) to overwrite with the given text, or to delete with
   * `null`, after the profile is written. Parent directories are created.
   */
  files?: Record<string, string | null>;
  /** `v2` (a single `cgroup.controllers`, the default) or a `v1` hybrid tree of controller mounts. */
  cgroup?: 'v1' | 'v2';
}

export interface BuiltHost {
  root: string;
  profile: HostProfile;
  /** `--host-root ROOT`: append to a `virtgate check` command line. */
  cliArgs: string[];
  /** The tier virtgate must decide for the host as built (before any mutator). */
  expectedTier: Tier;
}

/**
 * Writes the host root of `profile` at `dir` (created if missing; it must be empty) and returns
 * how to probe it. Throws with a clear message when a device node cannot be made or does not
 * behave as the profile needs, instead of producing a different host.
 */
export async function buildHost(dir: string, profile: HostProfile, options: BuildHostOptions = {}): Promise<BuiltHost> {
  const spec = PROFILES[profile];
  if (!spec) throw new Error(`buildHost: unknown profile "${String(profile)}"; one of ${HOST_PROFILES.join(', ')}`);
  const root = path.resolve(dir);
  await mkdir(root, { recursive: true });
  const existing = await readdir(root);
  if (existing.length > 0) throw new Error(`buildHost: ${root} is not empty (${existing.slice(0, 3).join(', ')}); give each host its own directory`);

  const nested: Record<string, string> = spec.nested ? { [`sys/module/${spec.nested.module}/parameters/nested`]: `${spec.nested.value}\n` } : {};
  await writeHostFiles(root, {
    'proc/cpuinfo': spec.cpuinfo,
    ...meminfoFiles(spec.memTotalKiB),
    ...cpuTopologyFiles(spec.cpuinfo),
    'proc/sys/kernel/osrelease': `${spec.kernelRelease}\n`,
    'proc/modules': procModules(spec.modules),
    'etc/os-release': spec.osRelease,
    // sysfs shows a loaded module with its refcnt; a built-in one only when it has parameters.
    ...Object.fromEntries(spec.modules.map((name) => [`sys/module/${name}/refcnt`, '0\n'])),
    ...nested,
    ...cgroupFiles(options.cgroup ?? 'v2'),
    ...dmiFiles(spec.dmi),
    ...Object.fromEntries(Array.from({ length: spec.iommu.groups }, (_, n) => [`sys/kernel/iommu_groups/${n}/type`, 'DMA-FQ\n'])),
  });
  const dirs = [
    ...spec.builtin.map((name) => `sys/module/${name}/parameters`),
    ...spec.iommu.units.map((unit) => `sys/class/iommu/${unit}`),
    'sys/kernel/iommu_groups',
    'dev/net',
  ];
  for (const dir of dirs) await mkdir(insideRoot(root, dir), { recursive: true });
  if (spec.pci) await writePciTree(root, spec.pci);

  const manifest: Manifest = { profile, devices: spec.devices };
  await writeFile(path.join(root, MANIFEST), `${JSON.stringify(manifest)}\n`);
  for (const [name, plan] of Object.entries(spec.devices) as Array<[DeviceName, DevicePlan]>) {
    await makeDevice(root, name, plan);
  }
  if (spec.confidential) {
    await writeHostFiles(root, spec.confidential.files);
    if (spec.confidential.sevDevice) await makeSevStandIn(root);
  }
  if (options.files) await writeHostFiles(root, options.files);

  return {
    root,
    profile,
    cliArgs: ['--host-root', root],
    expectedTier: spec.tier,
  };
}
