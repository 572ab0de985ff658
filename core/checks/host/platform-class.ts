import type { Observation } from '../observation.ts';
import type { CpuFacts } from './parse/cpuinfo.ts';

/**
 * Bare metal or a virtual machine, and which cloud or hypervisor: the pure classification of the
 * platform family's facts, shared by the families whose advice depends on it.
 */

/** The DMI strings that name the machine; null when the file is absent or unreadable. */
export interface DmiFacts {
  sysVendor: string | null;
  productName: string | null;
  productVersion: string | null;
  biosVendor: string | null;
}

export interface DeviceTreeFacts {
  /** `compatible` of the root node, e.g. `linux,dummy-virt` for a QEMU arm64 guest. */
  compatible: string[];
  /** `compatible` of the `hypervisor` node (Xen, some KVM guests), or null when there is no such node. */
  hypervisor: string[] | null;
}

export interface PlatformFacts {
  /** null when sys/class/dmi/id does not exist (arm64 boards with a device tree, some containers). */
  dmi: DmiFacts | null;
  /** sys/hypervisor/type, e.g. `xen`; null when absent. */
  hypervisorType: string | null;
  /** null when the host has no device tree (x86, arm64 with ACPI). */
  deviceTree: DeviceTreeFacts | null;
  /**
   * The container marker found at the host root (`.dockerenv`, `run/.containerenv`), or null: then
   * the files read are a container's view of its machine, which `inventory` may call "Docker Container".
   */
  containerMarker: string | null;
}

export const CLOUDS = ['aws', 'gcp', 'azure', 'openstack', 'hetzner', 'digitalocean'] as const;
export type Cloud = (typeof CLOUDS)[number];
export const PLATFORM_KINDS = ['bare-metal', 'virtual-machine', 'unknown'] as const;

export interface Platform {
  kind: (typeof PLATFORM_KINDS)[number];
  /** The hypervisor or cloud, when the host is a VM and something names it (`kvm`, `xen`, `Amazon EC2 (Nitro)`). */
  hypervisor: string | null;
  cloud: Cloud | null;
  /** The product name: an instance type on clouds (`m5.large`), a server model on metal. */
  product: string | null;
  vendor: string | null;
  /** Which fact decided: shown in messages and `observed`. */
  evidence: string;
}

interface DmiSignature {
  match: (dmi: DmiFacts) => boolean;
  hypervisor: string;
  cloud: Cloud | null;
}

const has = (value: string | null, pattern: RegExp): boolean => value !== null && pattern.test(value);

/** DMI strings that only virtual machines show. Bare-metal cloud instances are handled before these. */
const VM_SIGNATURES: readonly DmiSignature[] = [
  { match: (d) => has(d.sysVendor, /^Amazon EC2$/), hypervisor: 'Amazon EC2 (Nitro)', cloud: 'aws' },
  { match: (d) => has(d.biosVendor, /^Xen$/) && has(d.productVersion, /amazon/i), hypervisor: 'Amazon EC2 (Xen)', cloud: 'aws' },
  { match: (d) => has(d.sysVendor, /^Google$/) || has(d.productName, /^Google Compute Engine$/), hypervisor: 'Google Compute Engine', cloud: 'gcp' },
  { match: (d) => has(d.sysVendor, /^Microsoft Corporation$/) && has(d.productName, /^Virtual Machine$/), hypervisor: 'Hyper-V (Azure or on premises)', cloud: 'azure' },
  { match: (d) => has(d.sysVendor, /^OpenStack Foundation$/) || has(d.productName, /^OpenStack Nova$/), hypervisor: 'OpenStack Nova', cloud: 'openstack' },
  { match: (d) => has(d.sysVendor, /^Hetzner$/) && has(d.productName, /^vServer$/), hypervisor: 'Hetzner Cloud', cloud: 'hetzner' },
  { match: (d) => has(d.sysVendor, /^DigitalOcean$/), hypervisor: 'DigitalOcean', cloud: 'digitalocean' },
  { match: (d) => has(d.sysVendor, /^QEMU$/) || has(d.productName, /^(KVM|Standard PC|QEMU)/), hypervisor: 'KVM/QEMU', cloud: null },
  { match: (d) => has(d.sysVendor, /^VMware/) || has(d.productName, /^VMware/), hypervisor: 'VMware', cloud: null },
  { match: (d) => has(d.sysVendor, /^innotek GmbH$/) || has(d.productName, /^VirtualBox$/), hypervisor: 'VirtualBox', cloud: null },
  { match: (d) => has(d.sysVendor, /^Xen$/) || has(d.productName, /^HVM domU$/), hypervisor: 'Xen', cloud: null },
];

/** An EC2 bare-metal instance type: `m5.metal`, `m7i.metal-24xl`, `c7g.metal`. */
const EC2_METAL = /^[a-z0-9-]+\.metal(-\d+xl)?$/;

/**
 * Bare metal or a VM, from the strongest fact first: sys/hypervisor, an EC2 metal instance type,
 * the DMI strings of known hypervisors, the device tree, then the x86 `hypervisor` CPU flag.
 * arm64 has no such flag, so an arm64 host without DMI or a device tree is `unknown`.
 */
export function classifyPlatform(platform: PlatformFacts, cpu: Observation<CpuFacts>): Platform {
  const dmi = platform.dmi;
  const base = { vendor: dmi?.sysVendor ?? null, product: dmi?.productName ?? null };
  if (dmi !== null && has(dmi.sysVendor, /^Amazon EC2$/) && has(dmi.productName, EC2_METAL)) {
    return { kind: 'bare-metal', hypervisor: null, cloud: 'aws', ...base, evidence: `DMI: Amazon EC2 ${dmi.productName}` };
  }
  if (platform.hypervisorType !== null) {
    const signature = dmi ? VM_SIGNATURES.find((s) => s.match(dmi)) : undefined;
    return {
      kind: 'virtual-machine',
      hypervisor: signature?.hypervisor ?? platform.hypervisorType,
      cloud: signature?.cloud ?? null,
      ...base,
      evidence: `sys/hypervisor/type is ${platform.hypervisorType}`,
    };
  }
  if (dmi !== null) {
    const signature = VM_SIGNATURES.find((s) => s.match(dmi));
    if (signature) {
      return { kind: 'virtual-machine', hypervisor: signature.hypervisor, cloud: signature.cloud, ...base, evidence: `DMI: ${vendorAndProduct(dmi.sysVendor, dmi.productName)}` };
    }
  }
  const tree = platform.deviceTree;
  if (tree !== null && tree.hypervisor !== null) {
    return { kind: 'virtual-machine', hypervisor: tree.hypervisor[0] ?? 'unnamed', cloud: null, ...base, evidence: 'the device tree has a hypervisor node' };
  }
  if (tree !== null && tree.compatible.includes('linux,dummy-virt')) {
    return { kind: 'virtual-machine', hypervisor: 'KVM/QEMU', cloud: null, ...base, evidence: 'the device tree is a QEMU virt machine (linux,dummy-virt)' };
  }
  if (cpu.state === 'ok' && cpu.value.hypervisor) {
    return { kind: 'virtual-machine', hypervisor: null, cloud: null, ...base, evidence: 'the hypervisor CPU flag' };
  }
  if (cpu.state === 'ok' && cpu.value.arch === 'x86_64') {
    return { kind: 'bare-metal', hypervisor: null, cloud: null, ...base, evidence: 'no hypervisor CPU flag' };
  }
  // arm64 has no hypervisor flag: DMI or a device tree without VM markers speak for metal there.
  if (cpu.state === 'ok' && dmi !== null) return { kind: 'bare-metal', hypervisor: null, cloud: null, ...base, evidence: 'DMI names no hypervisor' };
  if (cpu.state === 'ok' && tree !== null) return { kind: 'bare-metal', hypervisor: null, cloud: null, ...base, evidence: 'the device tree names no hypervisor' };
  const missing = cpu.state === 'ok' ? 'no DMI and no device tree, and arm64 CPUs show no hypervisor flag' : `DMI names no hypervisor and ${cpu.reason}`;
  return { kind: 'unknown', hypervisor: null, cloud: null, ...base, evidence: missing };
}

/** Vendor and product as one name; a product that starts with its vendor ("Google" / "Google Compute Engine") names it once. */
function vendorAndProduct(vendor: string | null, product: string | null): string {
  return [vendor && product?.startsWith(vendor) ? null : vendor, product].filter(Boolean).join(' ');
}

export function describePlatform(platform: Platform): string {
  const named = vendorAndProduct(platform.vendor, platform.product);
  if (platform.kind === 'bare-metal') return `bare metal${named ? ` (${named})` : ''}`;
  if (platform.kind === 'virtual-machine') {
    const under = platform.hypervisor ? ` under ${platform.hypervisor}` : '';
    // Nor is the hypervisor named twice, as "under Google Compute Engine (Google Compute Engine)".
    return `a virtual machine${under}${named && named !== platform.hypervisor ? ` (${named})` : ''}`;
  }
  return 'bare metal or a virtual machine: cannot tell';
}
