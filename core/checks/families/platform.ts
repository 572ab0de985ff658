import type { CpuFamilyFacts } from './cpu.ts';
import type { CheckFamily, ProbeContext } from '../family.ts';
import { readHostFile } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import type { CpuFacts } from '../host/parse/cpuinfo.ts';
import type { CheckResultOf } from '../result.ts';

/** Bare metal or a virtual machine, and which cloud or hypervisor, from DMI, sysfs and the device tree. */
const IDS = ['platform'] as const;
type PlatformCheckId = (typeof IDS)[number];

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

export interface PlatformFamilyFacts {
  platform: PlatformFacts;
}

/** Sysfs strings are short; anything longer is not a DMI value. Control characters are dropped. */
const MAX_VALUE = 128;
const clean = (text: string): string =>
  text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, MAX_VALUE);

async function readValue(hostRoot: string, relative: string): Promise<string | null> {
  const read = await readHostFile(hostRoot, relative, 4096);
  if (read.state !== 'ok') return null;
  const value = clean(read.text);
  return value === '' ? null : value;
}

/** Device-tree `compatible` is a list of NUL-terminated strings. */
async function readCompatible(hostRoot: string, relative: string): Promise<string[] | null> {
  const read = await readHostFile(hostRoot, relative, 4096);
  if (read.state !== 'ok') return null;
  return read.text
    .split('\u0000')
    .map(clean)
    .filter((entry) => entry !== '')
    .slice(0, 8);
}

const DEVICE_TREE_ROOTS = ['proc/device-tree', 'sys/firmware/devicetree/base'] as const;

async function probeDeviceTree(hostRoot: string): Promise<DeviceTreeFacts | null> {
  for (const base of DEVICE_TREE_ROOTS) {
    const [compatible, model, hypervisor, hypervisorName] = await Promise.all([
      readCompatible(hostRoot, `${base}/compatible`),
      readValue(hostRoot, `${base}/model`),
      readCompatible(hostRoot, `${base}/hypervisor/compatible`),
      readValue(hostRoot, `${base}/hypervisor/name`),
    ]);
    if (compatible === null && model === null && hypervisor === null && hypervisorName === null) continue;
    // A hypervisor node without `compatible` still says the kernel runs under a hypervisor.
    const hypervisorNode = hypervisor ?? (hypervisorName !== null ? [hypervisorName] : null);
    return { compatible: compatible ?? [], hypervisor: hypervisorNode };
  }
  return null;
}

async function probeDmi(hostRoot: string): Promise<DmiFacts | null> {
  const [sysVendor, productName, productVersion, biosVendor] = await Promise.all(
    ['sys_vendor', 'product_name', 'product_version', 'bios_vendor'].map((name) => readValue(hostRoot, `sys/class/dmi/id/${name}`)),
  );
  if (sysVendor === null && productName === null && productVersion === null && biosVendor === null) return null;
  return { sysVendor: sysVendor ?? null, productName: productName ?? null, productVersion: productVersion ?? null, biosVendor: biosVendor ?? null };
}

/** Files container engines leave at a container's root (Docker, Podman/CRI-O). */
const CONTAINER_MARKERS = ['.dockerenv', 'run/.containerenv'] as const;

async function probeContainerMarker(hostRoot: string): Promise<string | null> {
  const found = await Promise.all(CONTAINER_MARKERS.map(async (marker) => ((await readHostFile(hostRoot, marker, 4096)).state === 'ok' ? marker : null)));
  return found.find((marker) => marker !== null) ?? null;
}

async function probePlatform({ hostRoot }: ProbeContext): Promise<PlatformFamilyFacts> {
  const [dmi, hypervisorType, deviceTree, containerMarker] = await Promise.all([
    probeDmi(hostRoot),
    readValue(hostRoot, 'sys/hypervisor/type'),
    probeDeviceTree(hostRoot),
    probeContainerMarker(hostRoot),
  ]);
  return { platform: { dmi, hypervisorType, deviceTree, containerMarker } };
}

// ---------------------------------------------------------------- classification (pure)

export type Cloud = 'aws' | 'gcp' | 'azure' | 'openstack' | 'hetzner' | 'digitalocean';

export interface Platform {
  kind: 'bare-metal' | 'virtual-machine' | 'unknown';
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
      return { kind: 'virtual-machine', hypervisor: signature.hypervisor, cloud: signature.cloud, ...base, evidence: `DMI: ${[dmi.sysVendor, dmi.productName].filter(Boolean).join(' ')}` };
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

/** What to run instead of a cloud VM, naming the current type where the cloud has a metal one. */
function cloudHint(platform: Platform, arch: string | undefined): string | undefined {
  const product = platform.product;
  switch (platform.cloud) {
    case 'aws': {
      const family = product?.split('.')[0];
      const suggestion = family && product ? `${family}.metal instead of ${product}` : 'a *.metal type';
      // Nested virtualization on EC2 virtual instances is Intel only (C8i, M8i, R8i); Graviton has none.
      const nested = arch === 'x86_64' ? ', or for tests a type with nested virtualization (C8i, M8i, R8i): other virtual EC2 instances get no VT-x' : ': virtual EC2 instances of this kind get no hardware virtualization';
      return `Use a .metal instance type (e.g. ${suggestion}, where the family has one)${nested}. On EKS, create the node group with that type.`;
    }
    case 'gcp':
      return `${product ?? 'This machine type'} is a VM: use a bare-metal machine type (C3 or later *-metal), or for tests enable nested virtualization on the instance (--enable-nested-virtualization).`;
    case 'azure':
      return 'Azure VMs are Hyper-V guests: KubeVirt runs only nested there (Dv3/Ev3 and later), for tests; use bare-metal nodes for production VMs.';
    case 'openstack':
    case 'hetzner':
    case 'digitalocean':
      return 'Cloud VMs run KubeVirt guests nested at best: use a bare-metal (dedicated) server for production VMs.';
    default:
      return undefined;
  }
}

export function describePlatform(platform: Platform): string {
  const named = [platform.vendor, platform.product].filter(Boolean).join(' ');
  if (platform.kind === 'bare-metal') return `bare metal${named ? ` (${named})` : ''}`;
  if (platform.kind === 'virtual-machine') {
    const under = platform.hypervisor ? ` under ${platform.hypervisor}` : '';
    return `a virtual machine${under}${named ? ` (${named})` : ''}`;
  }
  return 'bare metal or a virtual machine: cannot tell';
}

/** Said when the host root is a container's own root: the kernel's machine is judged, seen from a container. */
const seenFrom = (platform: PlatformFacts): string => (platform.containerMarker ? `; virtgate runs in a container on it (/${platform.containerMarker})` : '');

function evaluatePlatform(facts: PlatformFamilyFacts & CpuFamilyFacts): CheckResultOf<PlatformCheckId> {
  const id = 'platform';
  const platform = classifyPlatform(facts.platform, facts.cpu);
  const observed = {
    kind: platform.kind,
    hypervisor: platform.hypervisor,
    cloud: platform.cloud,
    vendor: platform.vendor,
    product: platform.product,
    evidence: platform.evidence,
  };
  if (platform.kind === 'unknown') {
    return { id, status: 'error', message: `cannot tell bare metal from a virtual machine: ${platform.evidence}`, observed };
  }
  // "the kernel runs on" holds both for the machine and for a container on it (the inventory may say "Docker Container").
  const message = `the kernel runs on ${describePlatform(platform)}; from ${platform.evidence}${seenFrom(facts.platform)}`;
  const hint = platform.kind === 'virtual-machine' ? cloudHint(platform, facts.cpu.state === 'ok' ? facts.cpu.value.arch : undefined) : undefined;
  // A cloud VM type is the commonest wrong choice, and the cloud has a better one: warn and name it.
  if (hint !== undefined) return { id, status: 'warn', message, hint, observed };
  return { id, status: 'pass', message, observed };
}

export const platformFamily = {
  ids: IDS,
  probe: probePlatform,
  evaluate: (facts: PlatformFamilyFacts & CpuFamilyFacts) => [evaluatePlatform(facts)],
  example: { platform: { dmi: { sysVendor: 'Dell Inc.', productName: 'PowerEdge R760', productVersion: null, biosVendor: 'Dell Inc.' }, hypervisorType: null, deviceTree: null, containerMarker: null } } satisfies PlatformFamilyFacts,
} satisfies CheckFamily;
