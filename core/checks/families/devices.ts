import { constants } from 'node:fs';
import { open, stat } from '../../fs-promised.ts';
import { DEVICE_SPECS, type DeviceSpec } from '../host/device-numbers.ts';
import type { CheckFamily, LabelValue, ProbeContext, StatusOf } from '../family.ts';
import { errnoCode, errorDetail, hostPath, readHostFile } from '../host/files.ts';
import { type KvmProvider, probeKvmProvider } from '../host/kvm-provider.ts';
import type { Observation } from '../observation.ts';
import type { CheckOutcomeOf, CheckStatus } from '../outcome.ts';
import { kvmDriverRemedy, lacksHardwareVirtualization } from '../host/virtualization-remedy.ts';
import type { CpuFamilyFacts } from './cpu.ts';
import { classifyPlatform } from '../host/platform-class.ts';
import type { PlatformFamilyFacts } from './platform.ts';

/** The device nodes KubeVirt needs: /dev/kvm, /dev/net/tun and /dev/vhost-net, opened for real. */
const IDS = ['dev.kvm', 'dev.tun', 'dev.vhost-net'] as const;
type DeviceCheckId = (typeof IDS)[number];

export type FileKind = 'char' | 'block' | 'file' | 'directory' | 'other';

export type DeviceFacts =
  | { path: string; state: 'missing' }
  | {
      path: string;
      state: 'present';
      kind: FileKind;
      major: number;
      minor: number;
      /** The major:minor the probe required: the host's sysfs `dev` file's, else the fixed table's (`10:232`). */
      expected: string;
      /** `ok`, or the errno code of open(O_RDWR): EACCES, ENODEV, EPERM, ... */
      open: string;
    }
  | { path: string; state: 'unknown'; reason: string };

export interface DevicesFamilyFacts {
  kvm: DeviceFacts;
  tun: DeviceFacts;
  vhostNet: DeviceFacts;
  /** Which module serves /dev/kvm (kvm-provider.ts). */
  kvmProvider: Observation<KvmProvider>;
}

// Linux dev_t encoding (glibc gnu_dev_major / gnu_dev_minor), valid for 32- and 64-bit dev_t.
export function devMajor(rdev: number): number {
  return Number(((BigInt(rdev) >> 8n) & 0xfffn) | ((BigInt(rdev) >> 32n) & ~0xfffn));
}
export function devMinor(rdev: number): number {
  return Number((BigInt(rdev) & 0xffn) | ((BigInt(rdev) >> 12n) & ~0xffn));
}

function kindOf(info: Awaited<ReturnType<typeof stat>>): FileKind {
  if (info.isCharacterDevice()) return 'char';
  if (info.isBlockDevice()) return 'block';
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'directory';
  return 'other';
}

/** The major:minor the host's sysfs says its driver registered (`10:232`), or null where it names none. */
async function registeredNumbers(hostRoot: string, spec: DeviceSpec): Promise<{ major: number; minor: number } | null> {
  // Missing (no driver), unreadable or malformed: the fixed table decides, as it did before sysfs.
  const read = await readHostFile(hostRoot, spec.sysfs, 32);
  const match = read.state === 'ok' ? /^(\d{1,4}):(\d{1,7})\n?$/.exec(read.text) : null;
  return match ? { major: Number(match[1]), minor: Number(match[2]) } : null;
}

/**
 * Checks that a device node exists with the numbers the host's kernel registered for it (its
 * sysfs `dev` file, else the fixed table), then opens it read-write. virt-host-validate only
 * calls access(), which passes on a node whose driver is not loaded; open() returns ENODEV there,
 * which is what QEMU would meet.
 */
export async function probeDevice(hostRoot: string, spec: DeviceSpec): Promise<DeviceFacts> {
  const full = hostPath(hostRoot, spec.path);
  const want = (await registeredNumbers(hostRoot, spec)) ?? spec;
  let info;
  try {
    info = await stat(full);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { path: spec.path, state: 'missing' };
    return { path: spec.path, state: 'unknown', reason: `stat ${spec.path}: ${errorDetail(error)}` };
  }
  const kind = kindOf(info);
  const isDevice = kind === 'char' || kind === 'block';
  const present = {
    path: spec.path,
    state: 'present' as const,
    kind,
    major: isDevice ? devMajor(info.rdev) : 0,
    minor: isDevice ? devMinor(info.rdev) : 0,
    expected: `${want.major}:${want.minor}`,
  };
  // Never open a node that is not the device we expect: another device may act on open.
  if (kind !== 'char' || present.major !== want.major || present.minor !== want.minor) return { ...present, open: 'skipped' };
  try {
    const handle = await open(full, constants.O_RDWR | constants.O_NONBLOCK);
    await handle.close();
    return { ...present, open: 'ok' };
  } catch (error) {
    return { ...present, open: errnoCode(error) };
  }
}

interface DeviceRule {
  id: DeviceCheckId;
  /** What a missing or unusable device costs: KVM and TUN are required, vhost-net only speeds networking up. */
  severity: 'fail' | 'warn';
  /** What to do when the device is absent or its driver is not loaded. */
  loadHint: string;
}

export const DEVICE_RULES = {
  kvm: {
    id: 'dev.kvm',
    severity: 'fail',
    // evaluateKvmDevice replaces it with the remedy that fits the CPU and the platform.
    loadHint: 'Load the KVM module for this CPU: kvm_intel with VT-x, kvm_amd with AMD-V.',
  },
  tun: {
    id: 'dev.tun',
    severity: 'fail',
    loadHint: 'Load the tun module (modprobe tun); without it VMs get no network at all.',
  },
  vhostNet: {
    id: 'dev.vhost-net',
    severity: 'warn',
    loadHint: 'Load the vhost_net module (modprobe vhost_net) for in-kernel virtio networking.',
  },
} as const satisfies Record<string, DeviceRule>;

const KIND_PHRASE: Record<FileKind, string> = {
  char: 'a character device',
  block: 'a block device',
  file: 'a regular file',
  directory: 'a directory',
  other: 'a FIFO, socket or other special file',
};

export function evaluateDevice(device: DeviceFacts, rule: DeviceRule): CheckOutcomeOf<DeviceCheckId> {
  const { id, severity } = rule;
  const path = `/${device.path}`;
  if (device.state === 'unknown') return { id, status: 'error', message: `could not inspect ${path}: ${device.reason}` };
  if (device.state === 'missing') {
    return { id, status: severity, message: `${path} does not exist`, hint: rule.loadHint, observed: { path } };
  }
  const observed = {
    path,
    kind: device.kind,
    major: device.major,
    minor: device.minor,
    expected: device.expected,
    open: device.open,
  };
  const numbers = `${device.major}:${device.minor}`;
  const want = device.expected;
  if (device.kind !== 'char') {
    return {
      id,
      status: severity,
      message: `${path} is ${KIND_PHRASE[device.kind]}, not a character device`,
      hint: `Remove it and let the kernel (devtmpfs) create the ${want} character device.`,
      observed,
    };
  }
  if (numbers !== want) {
    return {
      id,
      status: severity,
      message: `${path} is character device ${numbers}, expected ${want}`,
      hint: `Recreate it as a ${want} character device (mknod ${path} c ${want.replace(':', ' ')}).`,
      observed,
    };
  }
  switch (device.open) {
    case 'ok':
      return { id, status: 'pass', message: `${path} (${numbers}) opens read-write`, observed };
    case 'ENODEV':
    case 'ENXIO':
      return {
        id,
        status: severity,
        message: `${path} exists but its driver is not loaded (open: ${device.open})`,
        hint: rule.loadHint,
        observed,
      };
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return {
        id,
        status: severity,
        message: `${path} exists but cannot be opened read-write (${device.open})`,
        hint: 'Run virtgate as root in a privileged container; check the file mode and the device cgroup.',
        observed,
      };
    default:
      return { id, status: 'error', message: `opening ${path} failed with ${device.open}; cannot tell whether it works`, observed };
  }
}

async function probeDevices({ hostRoot }: ProbeContext): Promise<DevicesFamilyFacts> {
  const [kvm, tun, vhostNet, kvmProvider] = await Promise.all([
    probeDevice(hostRoot, DEVICE_SPECS.kvm),
    probeDevice(hostRoot, DEVICE_SPECS.tun),
    probeDevice(hostRoot, DEVICE_SPECS['vhost-net']),
    probeKvmProvider(hostRoot),
  ]);
  return { kvm, tun, vhostNet, kvmProvider };
}

/** How the KVM provider reads in dev.kvm's message, so the table names it (empty when no module is seen). */
const PROVIDER_PHRASE: Record<KvmProvider['module'], string> = {
  kvm_intel: ', served by kvm_intel (Intel VT-x)',
  kvm_amd: ', served by kvm_amd (AMD-V)',
  kvm_pvm: ', served by kvm_pvm',
  builtin: ', served by the kvm core built into the kernel',
  none: '',
};

/**
 * dev.kvm, with what its provider means: /dev/kvm served by kvm_pvm opens and runs a tiny guest,
 * yet it is paravirtual KVM, so it is never `pass` (and the tier never `hardware`). A /dev/kvm
 * that is absent or driverless on an x86 CPU without vmx/svm follows from cpu.virtualization: no
 * vendor module can load there. The remedy fits the CPU and the platform.
 */
export function evaluateKvmDevice(facts: Pick<DevicesFamilyFacts, 'kvm' | 'kvmProvider'> & CpuFamilyFacts & PlatformFamilyFacts): CheckOutcomeOf<DeviceCheckId> {
  const { kvm: device, kvmProvider: provider, cpu } = facts;
  const result = evaluateDevice(device, DEVICE_RULES.kvm);
  const module = provider.state === 'ok' ? provider.value.module : undefined;
  const observed = module ? { ...(result.observed ?? {}), provider: module } : result.observed;
  const withObserved = observed ? { ...result, observed } : result;
  const driverAbsent = device.state === 'missing' || (device.state === 'present' && (device.open === 'ENODEV' || device.open === 'ENXIO'));
  if (driverAbsent && result.status !== 'pass') {
    const cause = lacksHardwareVirtualization(cpu) ? { followsFrom: 'cpu.virtualization' } : {};
    return { ...withObserved, hint: kvmDriverRemedy(cpu, classifyPlatform(facts.platform, cpu)), ...cause };
  }
  if (result.status !== 'pass') return withObserved;
  if (module !== 'kvm_pvm') return { ...withObserved, message: `${result.message}${module ? PROVIDER_PHRASE[module] : ''}` };
  return {
    ...withObserved,
    status: 'warn',
    message: `${result.message}, but it is served by kvm_pvm: paravirtual KVM without VT-x/AMD-V, where only PVM-enabled guest kernels boot`,
    hint: 'KubeVirt needs hardware virtualization (kvm_intel with VT-x or kvm_amd with AMD-V): use a bare-metal node or a VM with nested virtualization. Until then VMs can only run emulated (useEmulation).',
  };
}

/** A device node with the expected numbers that opens read-write: the example host's. */
const present = (path: string, major: number, minor: number): DeviceFacts => ({
  path,
  state: 'present',
  kind: 'char',
  major,
  minor,
  expected: `${major}:${minor}`,
  open: 'ok',
});

/** A device's label follows its check: `true` on pass, `false` on fail or warn; kept when the check erred or was skipped. */
function followCheck(status: CheckStatus | undefined): LabelValue {
  if (status === 'pass') return 'true';
  if (status === 'fail' || status === 'warn') return 'false';
  return undefined;
}

export const devicesFamily = {
  ids: IDS,
  probe: probeDevices,
  evaluate: (facts: DevicesFamilyFacts & CpuFamilyFacts & PlatformFamilyFacts) => [
    evaluateKvmDevice(facts),
    evaluateDevice(facts.tun, DEVICE_RULES.tun),
    evaluateDevice(facts.vhostNet, DEVICE_RULES.vhostNet),
  ],
  labels: {
    declared: [
      { name: 'kvm', values: '`true`, `false`', meaning: 'dev.kvm passed: a VM gets hardware virtualization through /dev/kvm here' },
      { name: 'tun', values: '`true`, `false`', meaning: 'dev.tun passed: /dev/net/tun, which every VM with a pod network needs' },
      { name: 'vhost-net', values: '`true`, `false`', meaning: "dev.vhost-net passed: the kernel's virtio-net fast path" },
    ],
    values: (_facts: object, status: StatusOf) => ({
      kvm: followCheck(status('dev.kvm')),
      tun: followCheck(status('dev.tun')),
      'vhost-net': followCheck(status('dev.vhost-net')),
    }),
  },
  report: {
    fields: ['kvm'],
    // Always known: an unread /dev/kvm is the check's `error`.
    build: (_facts: object, status: StatusOf) => ({ kvm: status('dev.kvm') ?? 'error' }),
  },
  example: {
    kvm: present('dev/kvm', 10, 232),
    tun: present('dev/net/tun', 10, 200),
    vhostNet: present('dev/vhost-net', 10, 238),
    kvmProvider: { state: 'ok', value: { module: 'kvm_intel', seen: ['kvm', 'kvm_intel'] } },
  } satisfies DevicesFamilyFacts,
} satisfies CheckFamily;
