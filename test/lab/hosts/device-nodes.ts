/**
 * Device nodes in a fixture host root: made with mknod, with the kernel's own numbers, and opened
 * at once, so that a node that does not behave as the profile says stops the build instead of
 * making a test lie.
 *
 * A node's numbers name a driver of the running kernel: a fixture's dev/kvm (10:232) is this
 * machine's KVM, and it works only where this kernel serves it. virtgate has no switch that
 * accepts other numbers, so a profile that needs a working device can only be built on a machine
 * whose kernel serves it (`FixtureUnavailableError`, `fixtureUnavailable()` for a test to skip).
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEVICE_SPECS, type DeviceName } from '../../../core/checks/host/device-numbers.ts';
import { insideRoot } from './host-files.ts';
import { MISC_MAJOR, servedMiscMinor, unservedMiscMinor } from './misc-devices.ts';
import { SEV_STAND_IN_MINOR } from './profiles/confidential.ts';

const run = promisify(execFile);

/**
 * How a device node is made:
 * - usable: the kernel's node (10:232, 10:200, 10:238), which must open read-write: the build
 *   throws FixtureUnavailableError where this kernel does not serve it;
 * - kernel: the kernel's node, which opens where this kernel serves it and gives ENODEV where it
 *   does not (vhost-net, whose absence only costs a warning: the verdict follows the machine,
 *   `kernelServes`);
 * - unserved: a misc node (10:<minor>) whose minor no driver on this kernel serves, so that it is
 *   no working device anywhere (open() would give ENODEV); its numbers are not the kernel's, so
 *   virtgate reports it as the wrong device and does not open it;
 * - regular-file: an ordinary file where the device should be.
 */
export type DevicePlan = 'usable' | 'kernel' | 'unserved' | 'regular-file';

/** The misc names /proc/misc gives the devices. */
const MISC_NAMES: Record<DeviceName, string> = { kvm: 'kvm', tun: 'tun', 'vhost-net': 'vhost-net' };

/** Whether the running kernel serves this device's own numbers (its misc minor is in /proc/misc). */
export function kernelServes(name: DeviceName): boolean {
  return servedMiscMinor(MISC_NAMES[name]) === DEVICE_SPECS[name].minor;
}

/** A profile needs a device this machine's kernel does not serve: nothing honest can stand in for it. */
export class FixtureUnavailableError extends Error {}

/** Why the devices of a profile cannot be built here, or undefined when they can (for `it.skipIf`). */
export function fixtureUnavailable(devices: Partial<Record<DeviceName, DevicePlan>>): string | undefined {
  const missing = (Object.entries(devices) as Array<[DeviceName, DevicePlan]>).filter(([name, plan]) => plan === 'usable' && !kernelServes(name)).map(([name]) => name);
  if (missing.length === 0) return undefined;
  return `this machine's kernel does not serve ${missing.map((name) => `/dev/${name === 'tun' ? 'net/tun' : name} (${DEVICE_SPECS[name].major}:${DEVICE_SPECS[name].minor})`).join(', ')}, which the fixture host needs working`;
}

interface NodeSpec {
  major: number;
  minor: number;
  /** The open() result the build insists on: 'ok' or an errno code. */
  opens: 'ok' | 'ENODEV';
}

function nodeSpec(name: DeviceName, plan: Exclude<DevicePlan, 'regular-file'>): NodeSpec {
  if (plan === 'unserved') return { major: MISC_MAJOR, minor: unservedMiscMinor(), opens: 'ENODEV' };
  const { major, minor } = DEVICE_SPECS[name];
  if (plan === 'usable' && !kernelServes(name)) throw new FixtureUnavailableError(`buildHost: ${fixtureUnavailable({ [name]: plan })}`);
  return { major, minor, opens: kernelServes(name) ? 'ok' : 'ENODEV' };
}

export async function makeDevice(root: string, name: DeviceName, plan: DevicePlan): Promise<void> {
  const full = insideRoot(root, DEVICE_SPECS[name].path);
  await mkdir(path.dirname(full), { recursive: true });
  if (plan === 'regular-file') {
    await writeFile(full, '');
    return;
  }
  const node = nodeSpec(name, plan);
  try {
    await run('mknod', ['-m', '0666', full, 'c', String(node.major), String(node.minor)]);
  } catch (error) {
    const stderr = error && typeof error === 'object' && 'stderr' in error ? String(error.stderr).trim() : '';
    throw new Error(
      `buildHost: cannot make ${name} device node (mknod ${full} c ${node.major} ${node.minor}): ` +
        `${stderr || (error instanceof Error ? error.message : String(error))}. ` +
        'Fixture hosts need root with CAP_MKNOD; the tests do not fake a host without real device nodes.',
    );
  }
  const opened = await openResult(full);
  if (opened !== node.opens) {
    const why =
      node.opens === 'ENODEV'
        ? `a driver for ${node.major}:${node.minor} appeared after /proc/misc was read`
        : opened === 'EACCES' || opened === 'EPERM'
          ? 'the filesystem is probably mounted nodev, or a device cgroup denies it; build hosts on a filesystem that allows device nodes'
          : `the ${name} driver (${node.major}:${node.minor}) does not work on this machine`;
    throw new Error(`buildHost: ${full} (c ${node.major} ${node.minor}) must open with ${node.opens} but gave ${opened}: ${why}`);
  }
}

/**
 * dev/sev of a SEV host: a misc node on the minor the fixture's proc/misc names `sev`
 * (profiles/confidential.ts), which must open read-write as the ccp driver's does.
 */
export async function makeSevStandIn(root: string): Promise<void> {
  const full = insideRoot(root, 'dev/sev');
  await mkdir(path.dirname(full), { recursive: true });
  await run('mknod', ['-m', '0666', full, 'c', String(MISC_MAJOR), String(SEV_STAND_IN_MINOR)]);
  const opened = await openResult(full);
  if (opened !== 'ok') throw new Error(`buildHost: ${full} (c ${MISC_MAJOR} ${SEV_STAND_IN_MINOR}) must open read-write but gave ${opened}: tun's driver does not work on this machine`);
}

async function openResult(file: string): Promise<string> {
  try {
    const handle = await open(file, constants.O_RDWR | constants.O_NONBLOCK);
    await handle.close();
    return 'ok';
  } catch (error) {
    return error && typeof error === 'object' && 'code' in error ? String(error.code) : 'EUNKNOWN';
  }
}
