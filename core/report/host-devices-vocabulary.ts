/**
 * The words and limits of the passthrough inventory (core/report/host-devices.ts), apart from its
 * zod schemas: the probe that builds the inventory (core/checks/host/passthrough-inventory.ts)
 * needs these, not the schemas, and building them is 2 ms of every `virtgate check`.
 */

/**
 * Why a PCI function can or cannot be handed to a VM by KubeVirt's PCI device plugin, first
 * match wins:
 * - `no-iommu`: it has no IOMMU group (IOMMU off, or a device the IOMMU does not cover);
 * - `unbound`: no driver holds it (KubeVirt wants vfio-pci);
 * - `bound-to-host-driver`: a driver other than vfio-pci holds it;
 * - `group-not-viable`: bound to vfio-pci, but another device in its IOMMU group is held by a
 *   host driver (the kernel's viability rule, see passthrough-inventory.ts);
 * - `no-vfio-node`: bound to vfio-pci in a viable group, but dev/vfio/<group> is absent;
 * - `vfio-ready`: bound to vfio-pci, viable group, dev/vfio/<group> present.
 */
export const PASSTHROUGH_STATES = ['vfio-ready', 'no-vfio-node', 'group-not-viable', 'bound-to-host-driver', 'unbound', 'no-iommu'] as const;
export type PassthroughState = (typeof PASSTHROUGH_STATES)[number];

/** Rows kept in a report: a host has far fewer distinct vendor:device ids than this. */
export const MAX_DEVICE_ROWS = 128;
export const MAX_MEDIATED_TYPES = 64;

/** KubeVirt's pciVendorSelector form: four hex digits, a colon, four hex digits (upper case here). */
export const PCI_SELECTOR = /^[0-9A-F]{4}:[0-9A-F]{4}$/;

/** KubeVirt compares mdev names with spaces replaced by underscores (virt-handler device_controller.go removeSelectorSpaces). */
export function mdevSelectorName(name: string): string {
  return name.replaceAll(' ', '_').trim();
}
