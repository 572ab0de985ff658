import { isRecord } from '../../core/untrusted.ts';

/**
 * KubeVirt's spec.configuration.permittedHostDevices, as virt-handler reads it (KubeVirt v1.9.0:
 * kubevirt.io/api core/v1 types.go PermittedHostDevices, PciHostDevice, MediatedHostDevice;
 * pkg/virt-handler/device-manager/device_controller.go): `pciHostDevices[]` with
 * `pciVendorSelector` ("10DE:1EB8", compared lower-cased with the device's PCI_ID), `resourceName`
 * and `externalResourceProvider`; `mediatedDevices[]` with `mdevNameSelector` (compared with spaces
 * replaced by underscores), `resourceName` and `externalResourceProvider`. An entry with
 * externalResourceProvider is served by another device plugin, not by virt-handler.
 */
export interface PermittedPciDevice {
  kind: 'pci';
  /** Upper case VVVV:DDDD, as the node reports count them; null when the selector is malformed. */
  selector: string | null;
  /** As written, clipped: what the message names when the selector is malformed. */
  written: string;
  resourceName: string;
  external: boolean;
}

export interface PermittedMediatedDevice {
  kind: 'mediated';
  /** The name with spaces as underscores, as virt-handler compares it. */
  name: string;
  resourceName: string;
  external: boolean;
}

export type PermittedHostDevice = PermittedPciDevice | PermittedMediatedDevice;

/** More entries than this are not read: a real cluster permits a handful. */
export const MAX_PERMITTED_ENTRIES = 100;
const MAX_TEXT = 253;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, MAX_TEXT) : null);

/** Entries with a resourceName, in order; anything malformed is dropped (virt-api's webhook refuses it too). Never throws on plain JSON. */
export function parsePermittedHostDevices(value: unknown): PermittedHostDevice[] {
  if (!isRecord(value)) return [];
  const entries: PermittedHostDevice[] = [];
  const pci = Array.isArray(value.pciHostDevices) ? value.pciHostDevices.slice(0, MAX_PERMITTED_ENTRIES) : [];
  for (const raw of pci) {
    if (!isRecord(raw)) continue;
    const resourceName = text(raw.resourceName);
    const written = text(raw.pciVendorSelector);
    if (resourceName === null || written === null) continue;
    const selector = /^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}$/.test(written) ? written.toUpperCase() : null;
    entries.push({ kind: 'pci', selector, written, resourceName, external: raw.externalResourceProvider === true });
  }
  const mediated = Array.isArray(value.mediatedDevices) ? value.mediatedDevices.slice(0, MAX_PERMITTED_ENTRIES) : [];
  for (const raw of mediated) {
    if (!isRecord(raw)) continue;
    const resourceName = text(raw.resourceName);
    const name = text(raw.mdevNameSelector);
    if (resourceName === null || name === null) continue;
    entries.push({ kind: 'mediated', name: name.replaceAll(' ', '_'), resourceName, external: raw.externalResourceProvider === true });
  }
  return entries;
}
