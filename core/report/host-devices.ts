import { z } from 'zod';

/**
 * The node's device-passthrough inventory as the report carries it: counts per PCI vendor:device
 * and state, and the mediated-device types, never a list of every PCI function. The agent builds
 * it (core/checks/host/passthrough-inventory.ts); the gate reads it to say which node can provide
 * each of KubeVirt's permittedHostDevices. One flat shape, so the CRD stays structural.
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

export const pciDeviceRowSchema = z.object({
  selector: z.string().regex(PCI_SELECTOR).describe('vendor:device, as KubeVirt\'s pciVendorSelector (upper case).'),
  class: z.string().max(8).describe('The PCI class code (six hex digits), e.g. 030000 for a VGA controller.'),
  state: z.enum(PASSTHROUGH_STATES),
  count: z.int().min(1).max(1_000_000).describe('How many functions of this id are in this state.'),
  driver: z.string().max(64).optional().describe('The host driver holding the first of them (bound-to-host-driver).'),
  blocker: z.string().max(160).optional().describe('What makes the first of them unusable: the group member held by a host driver, or the missing dev/vfio node.'),
});

export const mediatedTypeRowSchema = z.object({
  name: z.string().max(128).describe("The type's name as KubeVirt's mdevNameSelector matches it (spaces as underscores)."),
  type: z.string().max(128).describe('The type directory, e.g. nvidia-222.'),
  available: z.int().min(0).max(1_000_000).describe('available_instances summed over the parent devices.'),
  created: z.int().min(0).max(1_000_000).describe('Instances of this type that exist (sys/bus/mdev/devices).'),
});

export const hostDevicesSchema = z.object({
  iommu: z.boolean().describe('Whether any PCI function has an IOMMU group.'),
  functions: z.int().min(0).max(1_000_000).describe('PCI functions walked.'),
  truncated: z.boolean().describe('True when the host has more PCI functions than the walk reads (the rows cover the first ones).'),
  pci: z.array(pciDeviceRowSchema).max(MAX_DEVICE_ROWS),
  mediated: z.array(mediatedTypeRowSchema).max(MAX_MEDIATED_TYPES),
});

export type PciDeviceRow = z.infer<typeof pciDeviceRowSchema>;
export type MediatedTypeRow = z.infer<typeof mediatedTypeRowSchema>;
export type HostDevices = z.infer<typeof hostDevicesSchema>;

/** KubeVirt compares mdev names with spaces replaced by underscores (virt-handler device_controller.go removeSelectorSpaces). */
export function mdevSelectorName(name: string): string {
  return name.replaceAll(' ', '_').trim();
}
