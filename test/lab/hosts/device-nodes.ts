/**
 * Device nodes in a fixture host root: made with mknod and opened at once, so that a node that
 * does not behave as the profile says stops the build instead of making a test lie. Each node's
 * numbers are also written where the kernel publishes a loaded misc driver's
 * (sys/class/misc/<name>/dev), which is what virtgate compares the node with, as devtmpfs and
 * udev make nodes from it.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEVICE_SPECS, type DeviceName } from '../../../core/checks/host/device-numbers.ts';
import { insideRoot } from './host-files.ts';
import { MISC_MAJOR, unservedMiscMinor } from './misc-devices.ts';
import { SEV_STAND_IN_MINOR } from './profiles/confidential.ts';

const run = promisify(execFile);

/**
 * How a device node is made:
 * - usable: it opens read-write (a stand-in for kvm and vhost-net, the real node for tun);
 * - enodev: a misc node whose minor no driver on this kernel serves, so open() fails with ENODEV;
 * - regular-file: an ordinary file where the device should be.
 */
export type DevicePlan = 'usable' | 'enodev' | 'regular-file';

interface NodeSpec {
  major: number;
  minor: number;
  /** The open() result the build insists on: 'ok' or an errno code. */
  opens: 'ok' | 'ENODEV';
}

const USABLE: Record<DeviceName, NodeSpec> = {
  kvm: { major: 1, minor: 3, opens: 'ok' },
  'vhost-net': { major: 1, minor: 5, opens: 'ok' },
  tun: { major: 10, minor: 200, opens: 'ok' },
};

function nodeSpec(name: DeviceName, plan: Exclude<DevicePlan, 'regular-file'>): NodeSpec {
  if (plan === 'usable') return USABLE[name];
  return { major: MISC_MAJOR, minor: unservedMiscMinor(), opens: 'ENODEV' };
}

export async function makeDevice(root: string, name: DeviceName, plan: DevicePlan): Promise<void> {
  const full = insideRoot(root, DEVICE_SPECS[name].path);
  await mkdir(path.dirname(full), { recursive: true });
  const registered = insideRoot(root, DEVICE_SPECS[name].sysfs);
  if (plan === 'regular-file') {
    // No driver registered it: a file sits where a node was expected.
    await rm(registered, { force: true });
    await writeFile(full, '');
    return;
  }
  const node = nodeSpec(name, plan);
  await mkdir(path.dirname(registered), { recursive: true });
  await writeFile(registered, `${node.major}:${node.minor}\n`);
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
