import { readlink } from 'node:fs/promises';
import path from 'node:path';
import { hostPath, readHostDir, readHostFile } from './files.ts';

/**
 * What sysfs says about each PCI function, for device passthrough: I/O only, no child process,
 * everything under the host root. The walk is bounded: at most MAX_PCI_FUNCTIONS functions, at
 * most PCI_WALK_CONCURRENCY reads in flight, each attribute file at most 64 bytes, at most
 * MAX_MDEV_TYPES_PER_FUNCTION mediated types per function and MAX_MDEV_INSTANCES instances.
 */
export const MAX_PCI_FUNCTIONS = 2048;
export const PCI_WALK_CONCURRENCY = 16;
export const MAX_MDEV_TYPES_PER_FUNCTION = 32;
export const MAX_MDEV_INSTANCES = 1024;
const ATTRIBUTE_BYTES = 64;

const PCI_DEVICES = 'sys/bus/pci/devices';
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
  /** Lower-case hex without 0x, as sysfs writes them after the prefix. */
  vendor: string;
  device: string;
  /** Six hex digits (030000). */
  class: string;
  /** The bound driver's name (readlink driver), null when none. */
  driver: string | null;
  /** The IOMMU group number (readlink iommu_group), null when the function has none. */
  iommuGroup: string | null;
  mdevTypes: MdevTypeReading[];
}

export interface PciWalk {
  functions: PciFunctionReading[];
  /** How many entries sys/bus/pci/devices lists (may exceed the functions read). */
  listed: number;
  /** Entries of dev/vfio (group numbers, and `vfio`). */
  vfioNodes: string[];
  /** The type name of each existing mediated device, as KubeVirt reads it (mdev_type/name, else the type directory). */
  mdevInstances: string[];
}

export type PciWalkResult = { state: 'ok'; walk: PciWalk } | { state: 'absent' } | { state: 'unreadable'; reason: string };

async function attribute(hostRoot: string, relative: string): Promise<string | null> {
  const read = await readHostFile(hostRoot, relative, ATTRIBUTE_BYTES);
  return read.state === 'ok' ? read.text.trim() : null;
}

/** The last component of a symlink's target, null when the link is absent. */
async function linkName(hostRoot: string, relative: string): Promise<string | null> {
  try {
    return path.basename(await readlink(hostPath(hostRoot, relative)));
  } catch {
    return null;
  }
}

const hex = (value: string | null, digits: number): string => (value ?? '').replace(/^0x/i, '').toLowerCase().padStart(digits, '0').slice(-digits);

async function readMdevTypes(hostRoot: string, dir: string): Promise<MdevTypeReading[]> {
  const types = await readHostDir(hostRoot, `${dir}/mdev_supported_types`);
  if (types.state !== 'ok') return [];
  return Promise.all(
    types.entries
      .sort()
      .slice(0, MAX_MDEV_TYPES_PER_FUNCTION)
      .map(async (type) => {
        const base = `${dir}/mdev_supported_types/${type}`;
        const [name, available] = await Promise.all([attribute(hostRoot, `${base}/name`), attribute(hostRoot, `${base}/available_instances`)]);
        const count = available === null ? Number.NaN : Number(available);
        return { type, name: name === '' ? null : name, availableInstances: Number.isInteger(count) && count >= 0 ? count : null };
      }),
  );
}

async function readFunction(hostRoot: string, address: string): Promise<PciFunctionReading> {
  const dir = `${PCI_DEVICES}/${address}`;
  const [vendor, device, pciClass, driver, iommuGroup, mdevTypes] = await Promise.all([
    attribute(hostRoot, `${dir}/vendor`),
    attribute(hostRoot, `${dir}/device`),
    attribute(hostRoot, `${dir}/class`),
    linkName(hostRoot, `${dir}/driver`),
    linkName(hostRoot, `${dir}/iommu_group`),
    readMdevTypes(hostRoot, dir),
  ]);
  return { address, vendor: hex(vendor, 4), device: hex(device, 4), class: hex(pciClass, 6), driver, iommuGroup, mdevTypes };
}

/** Runs `work` over `items` with at most `limit` in flight, keeping the order. */
async function boundedMap<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function readMdevInstances(hostRoot: string): Promise<string[]> {
  const instances = await readHostDir(hostRoot, MDEV_DEVICES);
  if (instances.state !== 'ok') return [];
  const names = await boundedMap(instances.entries.sort().slice(0, MAX_MDEV_INSTANCES), PCI_WALK_CONCURRENCY, async (uuid) => {
    // As virt-handler: the type's name file, else the name of the type directory it links to.
    const name = await attribute(hostRoot, `${MDEV_DEVICES}/${uuid}/mdev_type/name`);
    return name !== null && name !== '' ? name : linkName(hostRoot, `${MDEV_DEVICES}/${uuid}/mdev_type`);
  });
  return names.filter((name): name is string => name !== null);
}

export async function walkPci(hostRoot: string): Promise<PciWalkResult> {
  const listing = await readHostDir(hostRoot, PCI_DEVICES);
  if (listing.state === 'missing') return { state: 'absent' };
  if (listing.state === 'unreadable') return { state: 'unreadable', reason: `${PCI_DEVICES} could not be read (${listing.code})` };
  const addresses = listing.entries.sort().slice(0, MAX_PCI_FUNCTIONS);
  const [functions, vfio, mdevInstances] = await Promise.all([
    boundedMap(addresses, PCI_WALK_CONCURRENCY, (address) => readFunction(hostRoot, address)),
    readHostDir(hostRoot, 'dev/vfio'),
    readMdevInstances(hostRoot),
  ]);
  return { state: 'ok', walk: { functions, listed: listing.entries.length, vfioNodes: vfio.state === 'ok' ? vfio.entries : [], mdevInstances } };
}
