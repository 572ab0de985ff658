import type { CgroupFacts, CpuFacts, DeviceFacts, IommuFacts, ModuleFacts, Observation } from '../../host/facts.ts';
import type { CheckResult } from '../types.ts';

const opens = (device: DeviceFacts): boolean => device.state === 'present' && device.open === 'ok';

/**
 * Modules are only a hint: a built-in module without parameters is invisible in both
 * proc/modules and sys/module, so a device that opens counts as proof its driver is there.
 */
export function evaluateModules(
  modules: Observation<ModuleFacts>,
  cpu: Observation<CpuFacts>,
  devices: { kvm: DeviceFacts; tun: DeviceFacts; vhostNet: DeviceFacts },
): CheckResult {
  const id = 'kernel.modules';
  if (modules.state === 'unknown') return { id, status: 'error', message: modules.reason };
  const loaded = new Set(modules.value.loaded);
  const vendorModule =
    cpu.state === 'ok' && cpu.value.arch === 'x86_64' ? (cpu.value.vendor === 'intel' ? 'kvm_intel' : 'kvm_amd') : undefined;
  const wanted: Array<[string, boolean]> = [
    ['kvm', opens(devices.kvm)],
    ...(vendorModule ? ([[vendorModule, opens(devices.kvm)]] as Array<[string, boolean]>) : []),
    ['tun', opens(devices.tun)],
    ['vhost_net', opens(devices.vhostNet)],
  ];
  const missing = wanted.filter(([name, deviceWorks]) => !loaded.has(name) && !deviceWorks).map(([name]) => name);
  const observed = { sources: modules.value.sources, loaded: modules.value.loaded, missing };
  if (missing.length === 0) return { id, status: 'pass', message: 'kvm, tun and vhost_net are present', observed };
  return {
    id,
    status: 'warn',
    message: `not found loaded: ${missing.join(', ')} (a module built into the kernel may not show)`,
    hint: `modprobe ${missing.join(' ')}, and list them in /etc/modules-load.d/ so they load at boot.`,
    observed,
  };
}

const REQUIRED_CONTROLLERS: Record<1 | 2, string[]> = {
  1: ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'blkio'],
  2: ['cpu', 'cpuset', 'memory'],
};

export function evaluateCgroup(cgroup: Observation<CgroupFacts>): CheckResult {
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

export function evaluateIommu(iommu: Observation<IommuFacts>): CheckResult {
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
