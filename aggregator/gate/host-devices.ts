import type { HostDevices, PassthroughState, PciDeviceRow } from '../../core/report/host-devices.ts';
import type { PermittedHostDevice } from '../model/permitted-host-devices.ts';
import { clip } from '../../core/untrusted.ts';
import type { AssessedNode } from '../readiness/assess-node.ts';
import { canRunVms } from '../readiness/sort.ts';
import type { HostDeviceAvailability } from '../documents/gate.ts';
import { firstFew } from './evidence.ts';

/**
 * For each of KubeVirt's permittedHostDevices, which ready nodes can provide it, from each node's
 * passthrough inventory (status.hostDevices). Pure.
 * - A PCI entry is provided by a node with a function of that vendor:device that is vfio-ready
 *   (bound to vfio-pci, its IOMMU group viable, dev/vfio/<group> present) and whose uevent gives
 *   its PCI_ID: what virt-handler's PCI device plugin needs before it advertises the resource.
 * - A mediated entry is provided by a node where that type has instances, or can have them
 *   (available_instances > 0: virt-handler creates them from mediatedDevicesConfiguration).
 * - An entry with externalResourceProvider is served by another device plugin: not judged.
 * A node that does not provide an entry gets the reason from the closest row it has. A row without
 * a selector (its id could not be read on the node) matches no entry, whatever its state; a node
 * with such rows and no match is told that the device may be among them, not that it is absent.
 */

/** Which not-ready state explains best why a node does not provide a PCI entry: the one closest to ready. */
const CLOSEST: readonly PassthroughState[] = ['no-vfio-node', 'group-not-viable', 'bound-to-host-driver', 'unbound', 'no-iommu'];

function pciReason(rows: readonly PciDeviceRow[], devices: HostDevices): string {
  const hidden = rows.find((row) => row.state === 'vfio-ready' && row.idNotInUevent);
  if (hidden) return `vfio-ready, but its uevent gives no PCI_ID (${hidden.unread ?? 'unread'}), the only place KubeVirt's device plugin reads the id`;
  for (const state of CLOSEST) {
    const row = rows.find((candidate) => candidate.state === state);
    if (!row) continue;
    switch (state) {
      case 'no-vfio-node':
        return `bound to vfio-pci but ${row.blocker ?? 'its dev/vfio node is absent'}`;
      case 'group-not-viable':
        return `IOMMU group not viable: ${row.blocker ?? 'another device of the group is held by a host driver'}`;
      case 'bound-to-host-driver':
        return `not bound to vfio-pci (bound to ${row.driver ?? 'a host driver'})`;
      case 'unbound':
        return 'not bound to vfio-pci (no driver)';
      case 'no-iommu':
        return 'IOMMU off: the device has no IOMMU group';
    }
  }
  const unread = devices.pci.filter((row) => row.selector === undefined).reduce((sum, row) => sum + row.count, 0);
  const absent = devices.truncated ? `device absent from the first ${devices.functions} PCI functions read` : 'device absent';
  return unread > 0 ? `${absent} among the functions whose id was read; ${unread} function(s) of unread id could be it` : absent;
}

export interface NodeAnswer {
  devices: number;
  reason: string | null;
}

/** How many devices of one permitted entry a node's inventory provides, else why none. */
export function hostDeviceAnswer(entry: PermittedHostDevice, devices: HostDevices | null): NodeAnswer {
  if (devices === null) return { devices: 0, reason: 'no passthrough inventory in its report (an agent without it, or no PCI sysfs)' };
  if (entry.kind === 'pci') {
    if (entry.selector === null) return { devices: 0, reason: `pciVendorSelector "${clip(entry.written, 40)}" is not VVVV:DDDD` };
    const rows = devices.pci.filter((row) => row.selector === entry.selector);
    const ready = rows.filter((row) => row.state === 'vfio-ready' && !row.idNotInUevent).reduce((sum, row) => sum + row.count, 0);
    return ready > 0 ? { devices: ready, reason: null } : { devices: 0, reason: pciReason(rows, devices) };
  }
  const row = devices.mediated.find((candidate) => candidate.name === entry.name);
  if (!row) return { devices: 0, reason: `mediated type "${clip(entry.name, 60)}" absent` };
  const count = row.created + row.available;
  return count > 0 ? { devices: count, reason: null } : { devices: 0, reason: `mediated type "${clip(entry.name, 60)}": no instance created and none available` };
}

const selectorOf = (entry: PermittedHostDevice): string => (entry.kind === 'pci' ? (entry.selector ?? clip(entry.written, 40)) : entry.name);

export function hostDeviceAvailability(permitted: readonly PermittedHostDevice[], nodes: readonly AssessedNode[]): HostDeviceAvailability[] {
  const ready = nodes.filter((item) => canRunVms(item.readiness.state));
  return permitted.map((entry) => {
    const base = { resource: clip(entry.resourceName, 253), kind: entry.kind, selector: clip(selectorOf(entry), 128), external: entry.external };
    if (entry.external) return { ...base, nodes: 0, devices: 0, providers: [], reasons: [] };
    let devices = 0;
    const providers: string[] = [];
    const reasons: string[] = [];
    for (const item of ready) {
      const found = hostDeviceAnswer(entry, item.report?.hostDevices ?? null);
      if (found.reason === null) {
        devices += found.devices;
        providers.push(item.node.name);
      } else if (reasons.length < 10) {
        reasons.push(clip(`${item.node.name}: ${found.reason}`, 300));
      }
    }
    return { ...base, nodes: providers.length, devices, providers: firstFew(providers), reasons };
  });
}
