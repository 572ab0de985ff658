import type { DeviceFacts, FileKind } from '../../host/facts.ts';
import type { CheckId, CheckResult } from '../types.ts';

interface DeviceRule {
  id: CheckId;
  /** What a missing or unusable device costs: KVM and TUN are required, vhost-net only speeds networking up. */
  severity: 'fail' | 'warn';
  /** What to do when the device is absent or its driver is not loaded. */
  loadHint: string;
}

export const DEVICE_RULES = {
  kvm: {
    id: 'dev.kvm',
    severity: 'fail',
    loadHint:
      'Load kvm_intel or kvm_amd and enable VT-x/AMD-V in the firmware. On AWS only *.metal instances expose KVM.',
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

export function evaluateDevice(device: DeviceFacts, rule: DeviceRule): CheckResult {
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
    ...(device.overridden ? { overridden: true } : {}),
  };
  const numbers = `${device.major}:${device.minor}`;
  const want = device.expected;
  const note = device.overridden ? ' [test override of device numbers]' : '';
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
      return { id, status: 'pass', message: `${path} (${numbers}) opens read-write${note}`, observed };
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
