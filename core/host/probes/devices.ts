import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { DeviceFacts, FileKind } from '../facts.ts';
import { errnoCode, errorDetail, hostPath } from '../files.ts';

export type DeviceName = 'kvm' | 'tun' | 'vhost-net';

export interface DeviceSpec {
  path: string;
  major: number;
  minor: number;
  /** Set when the numbers come from a test override instead of the kernel's table. */
  overridden?: boolean;
}

/** The character devices KubeVirt needs, with the numbers the kernel assigns them (devices.txt, misc major 10). */
export const DEVICE_SPECS: Readonly<Record<DeviceName, DeviceSpec>> = {
  kvm: { path: 'dev/kvm', major: 10, minor: 232 },
  tun: { path: 'dev/net/tun', major: 10, minor: 200 },
  'vhost-net': { path: 'dev/vhost-net', major: 10, minor: 238 },
};

/**
 * Test seam: `kvm=1:3,vhost-net=1:5` makes the probe accept other device numbers, because a
 * machine without the kvm driver cannot produce a 10:232 node that opens. Every result made
 * this way says `overridden: true`, so no report can pass off a fixture as real hardware.
 */
export function parseDeviceOverrides(text: string): Record<DeviceName, DeviceSpec> {
  const specs: Record<DeviceName, DeviceSpec> = { ...DEVICE_SPECS };
  for (const item of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const match = /^(kvm|tun|vhost-net)=(\d{1,4}):(\d{1,7})$/.exec(item);
    if (!match?.[1] || !match[2] || !match[3]) {
      throw new Error(`bad device override "${item}": expected NAME=MAJOR:MINOR with NAME one of kvm, tun, vhost-net`);
    }
    const name = match[1] as DeviceName;
    specs[name] = { path: DEVICE_SPECS[name].path, major: Number(match[2]), minor: Number(match[3]), overridden: true };
  }
  return specs;
}

// Linux dev_t encoding (glibc gnu_dev_major / gnu_dev_minor), valid for 32- and 64-bit dev_t.
function devMajor(rdev: number): number {
  return Number(((BigInt(rdev) >> 8n) & 0xfffn) | ((BigInt(rdev) >> 32n) & ~0xfffn));
}
function devMinor(rdev: number): number {
  return Number((BigInt(rdev) & 0xffn) | ((BigInt(rdev) >> 12n) & ~0xffn));
}

function kindOf(info: Awaited<ReturnType<typeof stat>>): FileKind {
  if (info.isCharacterDevice()) return 'char';
  if (info.isBlockDevice()) return 'block';
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'directory';
  return 'other';
}

/**
 * Checks that a device node exists with the expected numbers, then opens it read-write.
 * virt-host-validate only calls access(), which passes on a node whose driver is not loaded;
 * open() returns ENODEV there, which is what QEMU would meet.
 */
export async function probeDevice(hostRoot: string, spec: DeviceSpec): Promise<DeviceFacts> {
  const full = hostPath(hostRoot, spec.path);
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
    expected: `${spec.major}:${spec.minor}`,
    overridden: spec.overridden === true,
  };
  // Never open a node that is not the device we expect: another device may act on open.
  if (kind !== 'char' || present.major !== spec.major || present.minor !== spec.minor) return { ...present, open: 'skipped' };
  try {
    const handle = await open(full, constants.O_RDWR | constants.O_NONBLOCK);
    await handle.close();
    return { ...present, open: 'ok' };
  } catch (error) {
    return { ...present, open: errnoCode(error) };
  }
}
