import { MAX_DEVICE_ROWS, MAX_MEDIATED_TYPES, mdevSelectorName, PASSTHROUGH_STATES, type PassthroughState, PCI_SELECTOR } from '../../report/host-devices-vocabulary.ts';
import type { HostDevices, MediatedTypeRow, PciDeviceRow } from '../../report/host-devices.ts';
import type { PciFunctionReading, PciWalk } from './pci-walk.ts';

/**
 * The compact passthrough inventory from one PCI walk. Pure.
 *
 * Group viability follows the kernel's rule (drivers/vfio/group.c, vfio_dev_viable, and
 * Documentation/driver-api/vfio.rst, "Groups, Devices, and IOMMUs"): a group may be handed to user
 * space only when every device in it is driver-less, bound to a VFIO driver, bound to an allowed
 * driver (pci-stub), or a PCI interconnect device (a header type other than normal: PCI-to-PCI
 * and CardBus bridges, classes 0604 and 0607, which the kernel lets stay on pcieport). vfio.rst's
 * own example leaves a driver-less bridge in the group and binds only the endpoint functions.
 * Group members are the PCI functions walked that name the same iommu_group.
 */

/** The driver KubeVirt's PCI device plugin requires on the device itself (virt-handler pci_device.go). */
export const KUBEVIRT_PCI_DRIVER = 'vfio-pci';

/** vfio-pci and its variant drivers (mlx5_vfio_pci, nvgrace_gpu_vfio_pci, ...) are VFIO drivers. */
function isVfioDriver(driver: string): boolean {
  return driver === KUBEVIRT_PCI_DRIVER || /(^|[_-])vfio([_-]|$)/.test(driver);
}

/** PCI-to-PCI bridge (0604xx) and CardBus bridge (0607xx): the header types the kernel exempts. An unread class is not known to be one. */
function isInterconnect(pciClass: string | null): boolean {
  return pciClass !== null && (pciClass.startsWith('0604') || pciClass.startsWith('0607'));
}

/** Whether this member leaves its group viable; false means it is held by a host driver (or, class unread, not known to be exempt). */
export function keepsGroupViable(member: Pick<PciFunctionReading, 'driver' | 'class'>): boolean {
  if (member.driver === null) return true;
  if (isVfioDriver(member.driver) || member.driver === 'pci-stub') return true;
  return isInterconnect(member.class);
}

/** KubeVirt's pciVendorSelector for the function; null when its vendor or device was not read, so it matches no selector. */
export const pciSelector = (fn: Pick<PciFunctionReading, 'vendor' | 'device'>): string | null => (fn.vendor === null || fn.device === null ? null : `${fn.vendor}:${fn.device}`.toUpperCase());

interface Classified {
  state: PassthroughState;
  driver?: string;
  blocker?: string;
}

function classify(fn: PciFunctionReading, groups: ReadonlyMap<string, PciFunctionReading[]>, vfioNodes: ReadonlySet<string>): Classified {
  if (fn.iommuGroup === null) return { state: 'no-iommu' };
  if (fn.driver === null) return { state: 'unbound' };
  if (fn.driver !== KUBEVIRT_PCI_DRIVER) return { state: 'bound-to-host-driver', driver: fn.driver };
  const held = (groups.get(fn.iommuGroup) ?? []).find((member) => member.address !== fn.address && !keepsGroupViable(member));
  if (held) {
    const what = `${pciSelector(held) ?? 'id unread'}${held.class === null ? ', class unread: not known to be a bridge' : ''}`;
    return { state: 'group-not-viable', blocker: `${held.address} (${what}) in IOMMU group ${fn.iommuGroup} is bound to ${held.driver ?? '?'}` };
  }
  if (!vfioNodes.has(fn.iommuGroup)) return { state: 'no-vfio-node', blocker: `dev/vfio/${fn.iommuGroup} is absent` };
  return { state: 'vfio-ready' };
}

const STATE_ORDER = new Map(PASSTHROUGH_STATES.map((state, index) => [state, index]));

const CLASS_SHAPE = /^[0-9a-f]{6}$/;

/**
 * localeCompare's order for two identifiers of one hex shape (same length, one case, digits before
 * letters) is the code units' order, which needs no ICU collator: its set-up on the first
 * localeCompare costs 7 ms, a seventh of `virtgate check`. Any other text still gets localeCompare.
 */
function compareIdentifiers(a: string | undefined, b: string | undefined, shape: RegExp): number {
  // An unread id sorts after every id that was read.
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (!shape.test(a) || !shape.test(b)) return a.localeCompare(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

function pciRows(walk: PciWalk): PciDeviceRow[] {
  const groups = new Map<string, PciFunctionReading[]>();
  for (const fn of walk.functions) {
    if (fn.iommuGroup === null) continue;
    const members = groups.get(fn.iommuGroup) ?? [];
    members.push(fn);
    groups.set(fn.iommuGroup, members);
  }
  const vfioNodes = new Set(walk.vfioNodes);
  const rows = new Map<string, PciDeviceRow>();
  for (const fn of walk.functions) {
    const { state, driver, blocker } = classify(fn, groups, vfioNodes);
    const selector = pciSelector(fn);
    const key = `${selector ?? '?'}|${fn.class ?? '?'}|${state}|${fn.idNotInUevent === true}`;
    const row = rows.get(key);
    if (row) {
      row.count += 1;
      continue;
    }
    rows.set(key, {
      ...(selector === null ? {} : { selector }),
      ...(fn.class === null ? {} : { class: fn.class }),
      ...(fn.unread === undefined ? {} : { unread: fn.unread.slice(0, 160) }),
      ...(fn.idNotInUevent ? { idNotInUevent: true as const } : {}),
      state,
      count: 1,
      ...(driver === undefined ? {} : { driver: driver.slice(0, 64) }),
      ...(blocker === undefined ? {} : { blocker: blocker.slice(0, 160) }),
    });
  }
  // Usable and nearly usable devices first, so a capped list keeps what passthrough is about.
  return [...rows.values()]
    .sort((a, b) => (STATE_ORDER.get(a.state) ?? 0) - (STATE_ORDER.get(b.state) ?? 0) || compareIdentifiers(a.selector, b.selector, PCI_SELECTOR) || compareIdentifiers(a.class, b.class, CLASS_SHAPE))
    .slice(0, MAX_DEVICE_ROWS);
}

function mediatedRows(walk: PciWalk): MediatedTypeRow[] {
  const rows = new Map<string, MediatedTypeRow>();
  for (const fn of walk.functions) {
    for (const type of fn.mdevTypes) {
      const name = mdevSelectorName(type.name ?? type.type);
      const row = rows.get(name) ?? { name: name.slice(0, 128), type: type.type.slice(0, 128), available: 0, created: 0 };
      row.available += type.availableInstances ?? 0;
      rows.set(name, row);
    }
  }
  for (const instance of walk.mdevInstances) {
    const name = mdevSelectorName(instance);
    const row = rows.get(name) ?? { name: name.slice(0, 128), type: name.slice(0, 128), available: 0, created: 0 };
    row.created += 1;
    rows.set(name, row);
  }
  return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name)).slice(0, MAX_MEDIATED_TYPES);
}

export function summarisePassthrough(walk: PciWalk): HostDevices {
  return {
    iommu: walk.functions.some((fn) => fn.iommuGroup !== null),
    functions: walk.functions.length,
    truncated: walk.listed > walk.functions.length,
    pci: pciRows(walk),
    mediated: mediatedRows(walk),
  };
}
