import { stat } from 'node:fs/promises';
import type { HostFacts } from './facts.ts';
import { errorDetail } from './files.ts';
import { probeCgroup } from './probes/cgroup.ts';
import { probeCpu } from './probes/cpu.ts';
import { DEVICE_SPECS, type DeviceName, type DeviceSpec, probeDevice } from './probes/devices.ts';
import { probeIommu } from './probes/iommu.ts';
import { probeKernelRelease } from './probes/kernel.ts';
import { probeModules, probeNested } from './probes/modules.ts';
import { probeOsRelease } from './probes/os-release.ts';

export class HostRootError extends Error {}

/** Fails fast when the host root itself is unusable: every probe would only say "unknown". */
export async function assertHostRoot(hostRoot: string): Promise<void> {
  try {
    const info = await stat(hostRoot);
    if (!info.isDirectory()) throw new HostRootError(`host root ${hostRoot} is not a directory`);
  } catch (error) {
    if (error instanceof HostRootError) throw error;
    throw new HostRootError(`host root ${hostRoot} cannot be read: ${errorDetail(error)}`);
  }
}

/** Runs every native probe under the host root. I/O only: no decisions are made here. */
export async function probeHost(
  hostRoot: string,
  devices: Readonly<Record<DeviceName, DeviceSpec>> = DEVICE_SPECS,
): Promise<HostFacts> {
  const [cpu, kvm, tun, vhostNet, kernelRelease, os, modules, nested, cgroup, iommu] = await Promise.all([
    probeCpu(hostRoot),
    probeDevice(hostRoot, devices.kvm),
    probeDevice(hostRoot, devices.tun),
    probeDevice(hostRoot, devices['vhost-net']),
    probeKernelRelease(hostRoot),
    probeOsRelease(hostRoot),
    probeModules(hostRoot),
    probeNested(hostRoot),
    probeCgroup(hostRoot),
    probeIommu(hostRoot),
  ]);
  return { hostRoot, cpu, kvm, tun, vhostNet, kernelRelease, os, modules, nested, cgroup, iommu };
}
