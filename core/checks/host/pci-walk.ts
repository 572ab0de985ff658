import { closeSync, constants, lstatSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import path from 'node:path';
import { errnoCode, hostPath } from './files.ts';

/**
 * What sysfs says about each PCI function, for device passthrough: I/O only, no child process,
 * everything under the host root. Per function: its `uevent` (PCI_ID and PCI_CLASS, as
 * virt-handler reads the id, and DRIVER) and `readlink iommu_group`; mediated types only for the
 * parents listed in sys/class/mdev_bus. Where uevent cannot be read (or lacks an id), the `vendor`,
 * `device` and `class` attributes the kernel also writes (0x10de, 0x030200) are read instead; an id
 * neither gives is null with the reason, never a zero the kernel did not say.
 *
 * Reads that cannot find anything are not made, by the kernel's own invariants: the driver comes
 * from uevent's DRIVER line (dev_uevent writes it from the same dev->driver the `driver` link
 * names; the link is read only when uevent cannot be), iommu_group links and dev/vfio only when
 * sys/kernel/iommu_groups lists a group (a function's link and a VFIO group node both name one),
 * and mediated devices only when sys/class/mdev_bus lists a parent (mdev_register_parent links
 * every parent there). On a host without an IOMMU that leaves one file a function (open, read, close).
 *
 * sysfs answers these from kernel memory in microseconds, so the reads are synchronous: through
 * the thread pool, each would cost a round trip worth far more than the read (a 500-function walk
 * took ~300 ms that way on the lab machine). The event loop is given back every
 * PCI_WALK_CHUNK functions, so it is never held for long. Bounds: at most MAX_PCI_FUNCTIONS
 * functions, ATTRIBUTE_BYTES per file, MAX_MDEV_PARENTS parents with MAX_MDEV_TYPES_PER_FUNCTION
 * types each, MAX_MDEV_INSTANCES instances.
 */
export const MAX_PCI_FUNCTIONS = 2048;
export const PCI_WALK_CHUNK = 64;
export const MAX_MDEV_PARENTS = 64;
export const MAX_MDEV_TYPES_PER_FUNCTION = 32;
export const MAX_MDEV_INSTANCES = 1024;
const ATTRIBUTE_BYTES = 4096;

const PCI_DEVICES = 'sys/bus/pci/devices';
const IOMMU_GROUPS = 'sys/kernel/iommu_groups';
const MDEV_BUS = 'sys/class/mdev_bus';
const MDEV_DEVICES = 'sys/bus/mdev/devices';

export interface MdevTypeReading {
  /** The type directory's name (nvidia-222). */
  type: string;
  /** The `name` file (GRID T4-1Q); null where the type has none. */
  name: string | null;
  availableInstances: number | null;
}

export interface PciFunctionReading {
  address: string;
  /** Lower-case hex: four digits each; null when neither uevent nor the attribute file gave it. */
  vendor: string | null;
  device: string | null;
  /** Six hex digits (030000); null when not read. */
  class: string | null;
  /** Each file tried that could not be read or gave no id (`uevent (EISDIR), vendor (ENOENT)`); absent when uevent gave everything. */
  unread?: string;
  /**
   * True when uevent gave no PCI_ID, even if the vendor and device files did: KubeVirt's PCI device
   * plugin reads the id only from uevent (virt-handler device-manager common.go, GetDevicePCIID) and
   * skips a function without it.
   */
  idNotInUevent?: true;
  /** The bound driver's name (uevent's DRIVER, else readlink driver), null when none. */
  driver: string | null;
  /** The IOMMU group number (readlink iommu_group), null when the function has none. */
  iommuGroup: string | null;
  mdevTypes: MdevTypeReading[];
}

export interface PciWalk {
  functions: PciFunctionReading[];
  /** How many entries sys/bus/pci/devices lists (may exceed the functions read). */
  listed: number;
  /** Entries of dev/vfio (group numbers, and `vfio`); not listed when the host has no IOMMU group. */
  vfioNodes: string[];
  /** The type name of each existing mediated device, as KubeVirt reads it (mdev_type/name, else the type directory); not listed without an mdev parent. */
  mdevInstances: string[];
}

export type PciWalkResult = { state: 'ok'; walk: PciWalk } | { state: 'absent' } | { state: 'unreadable'; reason: string };

/** One buffer for every attribute: the reads are synchronous, so no two use it at once. */
const attributeBuffer = Buffer.allocUnsafe(ATTRIBUTE_BYTES);

type AttributeRead = { text: string } | { code: string };

/**
 * A small file's text, or the errno that stopped it. One bounded read at offset 0 (sysfs hands
 * an attribute whole to the first read): a FIFO planted in a host root gives EAGAIN under
 * O_NONBLOCK and a device at most ATTRIBUTE_BYTES, so neither can hold the walk.
 */
function readAttribute(hostRoot: string, relative: string): AttributeRead {
  let fd: number;
  try {
    fd = openSync(hostPath(hostRoot, relative), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { code: errnoCode(error) };
  }
  try {
    const bytes = readSync(fd, attributeBuffer, 0, ATTRIBUTE_BYTES, 0);
    return { text: attributeBuffer.toString('utf8', 0, bytes) };
  } catch (error) {
    return { code: errnoCode(error) };
  } finally {
    closeSync(fd);
  }
}

/** The text, null when absent or unreadable. */
function attribute(hostRoot: string, relative: string): string | null {
  const read = readAttribute(hostRoot, relative);
  return 'text' in read ? read.text : null;
}

/** The last component of a symlink's target, null when the link is absent. */
function linkName(hostRoot: string, relative: string): string | null {
  try {
    return path.basename(readlinkSync(hostPath(hostRoot, relative)));
  } catch {
    return null;
  }
}

/**
 * Whether a path may exist: false only for a certain ENOENT. Asked before a read that usually finds
 * nothing (mdev, vfio), since a thrown ENOENT costs more than the lstat.
 */
function mayExist(hostRoot: string, relative: string): boolean {
  try {
    return lstatSync(hostPath(hostRoot, relative), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

function listing(hostRoot: string, relative: string): string[] {
  if (!mayExist(hostRoot, relative)) return [];
  try {
    return readdirSync(hostPath(hostRoot, relative));
  } catch {
    return [];
  }
}

/** A hex number of at most `digits` digits (0x10de, 10DE, 30000), lower case and zero-padded; null when the text is not one. */
function hexId(value: string | undefined, digits: number): string | null {
  const digitsRead = /^(?:0x)?([0-9a-f]+)$/i.exec(value?.trim() ?? '')?.[1];
  return digitsRead === undefined || digitsRead.length > digits ? null : digitsRead.toLowerCase().padStart(digits, '0');
}

interface UeventFields {
  vendor: string | null;
  device: string | null;
  class: string | null;
  /** The DRIVER line (dev_uevent); null when the device has none. */
  driver: string | null;
}

/** PCI_ID=10DE:2204, PCI_CLASS=30000 (the kernel's pci_uevent) and DRIVER=vfio-pci (dev_uevent) from a PCI device's uevent. */
function parseUevent(text: string): UeventFields {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0 && !fields.has(line.slice(0, equals))) fields.set(line.slice(0, equals), line.slice(equals + 1));
  }
  const id = fields.get('PCI_ID')?.split(':');
  const ids = id?.length === 2 ? { vendor: hexId(id[0], 4), device: hexId(id[1], 4) } : { vendor: null, device: null };
  const driver = fields.get('DRIVER');
  return { ...ids, class: hexId(fields.get('PCI_CLASS'), 6), driver: driver === undefined || driver === '' ? null : driver };
}

/**
 * The ids and class: uevent's, else the `vendor`, `device` and `class` attributes (pci-sysfs.c
 * writes them as 0x%04x and 0x%06x), each read only when uevent did not give it. What neither
 * gives stays null, with the files that failed.
 */
function readIds(hostRoot: string, dir: string, uevent: AttributeRead, fields: UeventFields | null): Pick<PciFunctionReading, 'vendor' | 'device' | 'class' | 'unread' | 'idNotInUevent'> {
  const failed: string[] = [];
  const idInUevent = fields?.vendor != null && fields.device != null;
  if ('code' in uevent) failed.push(`uevent (${uevent.code})`);
  else if (!idInUevent || fields?.class == null) failed.push(`uevent (no ${[...(idInUevent ? [] : ['PCI_ID']), ...(fields?.class == null ? ['PCI_CLASS'] : [])].join(' or ')})`);
  const fallback = (name: 'vendor' | 'device' | 'class', digits: number): string | null => {
    const read = readAttribute(hostRoot, `${dir}/${name}`);
    if ('code' in read) {
      failed.push(`${name} (${read.code})`);
      return null;
    }
    const value = hexId(read.text, digits);
    if (value === null) failed.push(`${name} (not a hex id)`);
    return value;
  };
  const vendor = fields?.vendor ?? fallback('vendor', 4);
  const device = fields?.device ?? fallback('device', 4);
  const pciClass = fields?.class ?? fallback('class', 6);
  return { vendor, device, class: pciClass, ...(failed.length > 0 ? { unread: failed.join(', ') } : {}), ...(idInUevent ? {} : { idNotInUevent: true as const }) };
}

function readMdevTypes(hostRoot: string, address: string): MdevTypeReading[] {
  const dir = `${PCI_DEVICES}/${address}/mdev_supported_types`;
  return listing(hostRoot, dir)
    .sort()
    .slice(0, MAX_MDEV_TYPES_PER_FUNCTION)
    .map((type) => {
      const name = attribute(hostRoot, `${dir}/${type}/name`)?.trim() ?? null;
      const available = Number(attribute(hostRoot, `${dir}/${type}/available_instances`)?.trim() ?? Number.NaN);
      return { type, name: name === '' ? null : name, availableInstances: Number.isInteger(available) && available >= 0 ? available : null };
    });
}

/**
 * False when the host certainly has no IOMMU group: the kernel links a function's iommu_group only
 * to a group under sys/kernel/iommu_groups, so the per-function readlink (an ENOENT each) is skipped.
 * A group is a directory, and sysfs (like ext4 and tmpfs) counts a directory's subdirectories in its
 * link count, so one lstat answers: 2 links, none; more, some. A file system that does not count
 * (btrfs, overlayfs: 1) is listed instead; an unreadable directory says nothing, so the links are read.
 */
function mayHaveIommuGroups(hostRoot: string): boolean {
  let links: number;
  try {
    const stats = lstatSync(hostPath(hostRoot, IOMMU_GROUPS), { throwIfNoEntry: false });
    if (stats === undefined || !stats.isDirectory()) return false;
    links = stats.nlink;
  } catch {
    return true;
  }
  if (links >= 2) return links > 2;
  try {
    return readdirSync(hostPath(hostRoot, IOMMU_GROUPS)).length > 0;
  } catch {
    return true;
  }
}

function readFunction(hostRoot: string, address: string, mdevParents: ReadonlySet<string>, iommuGroups: boolean): PciFunctionReading {
  const dir = `${PCI_DEVICES}/${address}`;
  const uevent = readAttribute(hostRoot, `${dir}/uevent`);
  const fields = 'text' in uevent ? parseUevent(uevent.text) : null;
  return {
    address,
    ...readIds(hostRoot, dir, uevent, fields),
    driver: fields === null ? linkName(hostRoot, `${dir}/driver`) : fields.driver,
    iommuGroup: iommuGroups ? linkName(hostRoot, `${dir}/iommu_group`) : null,
    mdevTypes: mdevParents.has(address) ? readMdevTypes(hostRoot, address) : [],
  };
}

function readMdevInstances(hostRoot: string): string[] {
  const names: string[] = [];
  for (const uuid of listing(hostRoot, MDEV_DEVICES).sort().slice(0, MAX_MDEV_INSTANCES)) {
    // As virt-handler: the type's name file, else the name of the type directory it links to.
    const name = attribute(hostRoot, `${MDEV_DEVICES}/${uuid}/mdev_type/name`)?.trim();
    const found = name !== undefined && name !== '' ? name : linkName(hostRoot, `${MDEV_DEVICES}/${uuid}/mdev_type`);
    if (found !== null) names.push(found);
  }
  return names;
}

export async function walkPci(hostRoot: string): Promise<PciWalkResult> {
  let entries: string[];
  try {
    entries = readdirSync(hostPath(hostRoot, PCI_DEVICES));
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'absent' };
    return { state: 'unreadable', reason: `${PCI_DEVICES} could not be read (${code})` };
  }
  const addresses = entries.sort().slice(0, MAX_PCI_FUNCTIONS);
  const mdevParents = new Set(listing(hostRoot, MDEV_BUS).sort().slice(0, MAX_MDEV_PARENTS));
  const iommuGroups = mayHaveIommuGroups(hostRoot);
  const functions: PciFunctionReading[] = [];
  for (let start = 0; start < addresses.length; start += PCI_WALK_CHUNK) {
    // The global setImmediate: node:timers/promises is one more module for every `virtgate check` to load.
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const address of addresses.slice(start, start + PCI_WALK_CHUNK)) functions.push(readFunction(hostRoot, address, mdevParents, iommuGroups));
  }
  const vfioNodes = iommuGroups ? listing(hostRoot, 'dev/vfio') : [];
  const mdevInstances = mdevParents.size > 0 ? readMdevInstances(hostRoot) : [];
  return { state: 'ok', walk: { functions, listed: entries.length, vfioNodes, mdevInstances } };
}
