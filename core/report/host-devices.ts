import { z } from 'zod';
import { MAX_DEVICE_ROWS, MAX_MEDIATED_TYPES, PASSTHROUGH_STATES, PCI_SELECTOR } from './host-devices-vocabulary.ts';

/**
 * The node's device-passthrough inventory as the report carries it: counts per PCI vendor:device
 * and state, and the mediated-device types, never a list of every PCI function. The agent builds
 * it (core/checks/host/passthrough-inventory.ts); the gate reads it to say which node can provide
 * each of KubeVirt's permittedHostDevices. One flat shape, so the CRD stays structural.
 */

export { MAX_DEVICE_ROWS, MAX_MEDIATED_TYPES, mdevSelectorName, PASSTHROUGH_STATES, type PassthroughState, PCI_SELECTOR } from './host-devices-vocabulary.ts';

export const pciDeviceRowSchema = z.object({
  selector: z.string().regex(PCI_SELECTOR).optional().describe("vendor:device, as KubeVirt's pciVendorSelector (upper case). Absent when the id could not be read (`unread` says why): such functions match no selector."),
  class: z.string().max(8).optional().describe('The PCI class code (six hex digits), e.g. 030000 for a VGA controller. Absent when it could not be read.'),
  unread: z.string().max(160).optional().describe('The sysfs files of the first of them that could not be read or gave no id (uevent, vendor, device, class): why selector or class is absent, or where the id was read instead of uevent.'),
  idNotInUevent: z.literal(true).optional().describe("True when their uevent gives no PCI_ID (the id, if any, came from the vendor and device files): KubeVirt's PCI device plugin reads the id only from uevent and does not offer them."),
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
