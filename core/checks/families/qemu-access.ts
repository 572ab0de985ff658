import { stat } from '../../fs-promised.ts';
import { DEVICE_SPECS, type DeviceName } from '../host/device-numbers.ts';
import type { CheckFamily, ProbeContext } from '../family.ts';
import { errnoCode, errorDetail, hostPath } from '../host/files.ts';
import type { CheckOutcomeOf } from '../outcome.ts';

/**
 * qemu.access: can KubeVirt's QEMU (uid/gid 107 in virt-launcher) open the devices as the node
 * has them? A pure evaluation of mode, owner and group; informational, because virt-handler's
 * device plugin passes the nodes into the virt-launcher pod, so the host's mode matters less.
 */
const IDS = ['qemu.access'] as const;
type QemuAccessCheckId = (typeof IDS)[number];

/** The qemu user and group of KubeVirt's virt-launcher image. */
export const QEMU_UID = 107;
export const QEMU_GID = 107;

export type NodeAccessFacts =
  | { path: string; state: 'present'; mode: number; uid: number; gid: number }
  | { path: string; state: 'missing' }
  | { path: string; state: 'unknown'; reason: string };

export interface QemuAccessFamilyFacts {
  deviceAccess: Record<DeviceName, NodeAccessFacts>;
}

async function statNode(hostRoot: string, relative: string): Promise<NodeAccessFacts> {
  try {
    const info = await stat(hostPath(hostRoot, relative));
    return { path: relative, state: 'present', mode: info.mode & 0o7777, uid: info.uid, gid: info.gid };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { path: relative, state: 'missing' };
    return { path: relative, state: 'unknown', reason: `stat ${relative}: ${errorDetail(error)}` };
  }
}

async function probeQemuAccess({ hostRoot }: ProbeContext): Promise<QemuAccessFamilyFacts> {
  const [kvm, tun, vhostNet] = await Promise.all([statNode(hostRoot, DEVICE_SPECS.kvm.path), statNode(hostRoot, DEVICE_SPECS.tun.path), statNode(hostRoot, DEVICE_SPECS['vhost-net'].path)]);
  return { deviceAccess: { kvm, tun, 'vhost-net': vhostNet } };
}

/** Pure: whether uid/gid opens a node read-write by its mode bits (owner, else group, else other), as the kernel decides without capabilities. */
export function canOpenReadWrite(node: { mode: number; uid: number; gid: number }, uid: number, gid: number): boolean {
  const shift = node.uid === uid ? 6 : node.gid === gid ? 3 : 0;
  return ((node.mode >> shift) & 0o6) === 0o6;
}

/** `mode 0600, owner 0:0`: plain words instead of `0600 0:0`. */
const describe = (node: { mode: number; uid: number; gid: number }): string => `mode ${node.mode.toString(8).padStart(4, '0')}, owner ${node.uid}:${node.gid}`;

export function evaluateQemuAccess(deviceAccess: Record<DeviceName, NodeAccessFacts>): CheckOutcomeOf<QemuAccessCheckId> {
  const id = 'qemu.access';
  const nodes = Object.values(deviceAccess);
  const present = nodes.filter((node) => node.state === 'present');
  if (present.length === 0) return { id, status: 'skip', message: 'none of /dev/kvm, /dev/net/tun, /dev/vhost-net could be looked at' };
  const denied = present.filter((node) => !canOpenReadWrite(node, QEMU_UID, QEMU_GID));
  const parts = present.map((node) => `/${node.path} ${describe(node)}: ${canOpenReadWrite(node, QEMU_UID, QEMU_GID) ? `uid ${QEMU_UID} too` : `not uid ${QEMU_UID}`}`);
  const observed = {
    uid: QEMU_UID,
    gid: QEMU_GID,
    devices: present.map((node) => ({ path: `/${node.path}`, mode: node.mode.toString(8).padStart(4, '0'), uid: node.uid, gid: node.gid, qemuCanOpen: canOpenReadWrite(node, QEMU_UID, QEMU_GID) })),
  };
  if (denied.length === 0) return { id, status: 'pass', message: `QEMU as uid/gid ${QEMU_UID} can open the devices as the node has them (${parts.join('; ')})`, observed };
  // Informational either way: under KubeVirt the device plugin grants QEMU the nodes, so a mode
  // that admits only root is no problem there. The message says so instead of reporting a failure.
  return {
    id,
    status: 'pass',
    message: `under KubeVirt QEMU (uid/gid ${QEMU_UID}) gets ${denied.map((node) => `/${node.path}`).join(', ')} through virt-handler's device plugin; the node's own modes admit only other users (${parts.join('; ')})`,
    hint: "The host's mode only matters to QEMU run outside KubeVirt or through another device plugin: there, add uid/gid 107 to the device's group or widen its mode.",
    observed,
  };
}

export const qemuAccessFamily = {
  ids: IDS,
  probe: probeQemuAccess,
  evaluate: (facts: QemuAccessFamilyFacts) => [evaluateQemuAccess(facts.deviceAccess)],
  example: {
    deviceAccess: {
      kvm: { path: 'dev/kvm', state: 'present', mode: 0o666, uid: 0, gid: 36 },
      tun: { path: 'dev/net/tun', state: 'present', mode: 0o666, uid: 0, gid: 0 },
      'vhost-net': { path: 'dev/vhost-net', state: 'present', mode: 0o600, uid: 0, gid: 0 },
    },
  } satisfies QemuAccessFamilyFacts,
} satisfies CheckFamily;
