import { readHostDir, readHostFile } from './files.ts';
import type { Observation } from '../observation.ts';
import { parseProcModules } from './parse/proc-modules.ts';

/**
 * Which kernel module serves /dev/kvm:
 * - `kvm_intel` / `kvm_amd`: hardware virtualization (VT-x, AMD-V), what KubeVirt needs;
 * - `kvm_pvm`: paravirtual KVM (no VT-x/AMD-V; only PVM-enabled guest kernels boot);
 * - `builtin`: the kvm core without a vendor module, as on arm64 where KVM is built in;
 * - `none`: no KVM module in proc/modules or sys/module.
 */
export const KVM_PROVIDERS = ['kvm_intel', 'kvm_amd', 'kvm_pvm', 'builtin', 'none'] as const;
export type KvmProviderName = (typeof KVM_PROVIDERS)[number];

export interface KvmProvider {
  module: KvmProviderName;
  /** The KVM modules seen, from proc/modules and sys/module. */
  seen: string[];
}

// kvm_pvm first: a PVM kernel can carry a vendor module too, and then PVM still decides what boots.
const VENDOR_MODULES = ['kvm_pvm', 'kvm_intel', 'kvm_amd'] as const;

/** Pure: the provider among the module names seen. */
export function kvmProviderOf(seen: readonly string[]): KvmProviderName {
  const vendor = VENDOR_MODULES.find((name) => seen.includes(name));
  if (vendor) return vendor;
  return seen.includes('kvm') ? 'builtin' : 'none';
}

/** Reads proc/modules and sys/module under the host root (a built-in module with parameters shows only in sys/module). */
export async function probeKvmProvider(hostRoot: string): Promise<Observation<KvmProvider>> {
  const [procModules, sysModule] = await Promise.all([readHostFile(hostRoot, 'proc/modules'), readHostDir(hostRoot, 'sys/module')]);
  if (procModules.state !== 'ok' && sysModule.state !== 'ok') {
    return { state: 'unknown', reason: 'neither proc/modules nor sys/module could be read' };
  }
  const names = new Set([...(procModules.state === 'ok' ? parseProcModules(procModules.text) : []), ...(sysModule.state === 'ok' ? sysModule.entries : [])]);
  const seen = ['kvm', ...VENDOR_MODULES].filter((name) => names.has(name));
  return { state: 'ok', value: { module: kvmProviderOf(seen), seen } };
}
