import type { CheckFamily, ProbeContext } from '../family.ts';
import { readHostFile } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import type { CpuFacts } from '../host/parse/cpuinfo.ts';
import type { CheckOutcomeOf } from '../outcome.ts';
import type { PlatformReport } from '../../report/schema.ts';
import { classifyPlatform, type DeviceTreeFacts, type DmiFacts, describePlatform, type Platform, type PlatformFacts } from '../host/platform-class.ts';

/** Bare metal or a virtual machine, and which cloud or hypervisor, from DMI, sysfs and the device tree. */
const IDS = ['platform'] as const;
type PlatformCheckId = (typeof IDS)[number];

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

/** Said when the host root is a container's own root: the kernel's machine is judged, seen from a container. */
const seenFrom = (platform: PlatformFacts): string => (platform.containerMarker ? `; virtgate runs in a container on it (/${platform.containerMarker})` : '');

function evaluatePlatform(facts: PlatformFamilyFacts & { cpu: Observation<CpuFacts> }): CheckOutcomeOf<PlatformCheckId> {
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

/** Absent rather than null: the API server prunes a null the schema does not allow, and the report would never equal what is stored. */
function platformReport(facts: PlatformFamilyFacts & { cpu: Observation<CpuFacts> }): PlatformReport {
  const { kind, cloud, hypervisor } = classifyPlatform(facts.platform, facts.cpu);
  return { kind, ...(cloud === null ? {} : { cloud }), ...(hypervisor === null ? {} : { hypervisor: hypervisor.slice(0, 128) }) };
}

export const platformFamily = {
  ids: IDS,
  probe: probePlatform,
  evaluate: (facts: PlatformFamilyFacts & { cpu: Observation<CpuFacts> }) => [evaluatePlatform(facts)],
  report: {
    fields: ['platform'],
    build: (facts: PlatformFamilyFacts & { cpu: Observation<CpuFacts> }) => ({ platform: platformReport(facts) }),
  },
  example: { platform: { dmi: { sysVendor: 'Dell Inc.', productName: 'PowerEdge R760', productVersion: null, biosVendor: 'Dell Inc.' }, hypervisorType: null, deviceTree: null, containerMarker: null } } satisfies PlatformFamilyFacts,
} satisfies CheckFamily;
