import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { DeviceFacts, FileKind } from '../facts.ts';
import { errnoCode, errorDetail, hostPath } from '../files.ts';

export interface DeviceSpec {
  path: string;
  major: number;
  minor: number;
}

/** The character devices KubeVirt needs, with the numbers the kernel assigns them (devices.txt, misc major 10). */
export const KVM_DEVICE: DeviceSpec = { path: 'dev/kvm', major: 10, minor: 232 };
export const TUN_DEVICE: DeviceSpec = { path: 'dev/net/tun', major: 10, minor: 200 };
export const VHOST_NET_DEVICE: DeviceSpec = { path: 'dev/vhost-net', major: 10, minor: 238 };

// Linux dev_t encoding (glibc gnu_dev_major / gnu_dev_minor), valid for 32- and 64-bit dev_t.
function devMajor(rdev: number): number {
  return Number(((BigInt(rdev) >> 8n) & 0xfffn) | ((BigInt(rdev) >> 32n) & ~0xfffn));
}
function devMinor(rdev: number): number {
  return Number((BigInt(rdev) & 0xffn) | ((BigInt(rdev) >> 12n) & ~0xffn));
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
  const kind: FileKind = info.isCharacterDevice()
    ? 'char'
    : info.isBlockDevice()
      ? 'block'
      : info.isFile()
        ? 'file'
        : info.isDirectory()
          ? 'directory'
          : 'other';
  const major = kind === 'char' || kind === 'block' ? devMajor(info.rdev) : 0;
  const minor = kind === 'char' || kind === 'block' ? devMinor(info.rdev) : 0;
  // Never open a node that is not the device we expect: another device may act on open.
  if (kind !== 'char' || major !== spec.major || minor !== spec.minor) {
    return { path: spec.path, state: 'present', kind, major, minor, open: 'skipped' };
  }
  try {
    const handle = await open(full, constants.O_RDWR | constants.O_NONBLOCK);
    await handle.close();
    return { path: spec.path, state: 'present', kind, major, minor, open: 'ok' };
  } catch (error) {
    return { path: spec.path, state: 'present', kind, major, minor, open: errnoCode(error) };
  }
}
