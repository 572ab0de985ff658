import { PASSTHROUGH_STATES } from '../../report/host-devices-vocabulary.ts';
import type { HostDevices, PciDeviceRow } from '../../report/host-devices.ts';
import type { CheckFamily, ProbeContext } from '../family.ts';
import { MAX_PCI_FUNCTIONS, walkPci } from '../host/pci-walk.ts';
import { summarisePassthrough } from '../host/passthrough-inventory.ts';
import type { Observation } from '../observation.ts';
import type { CheckOutcomeOf } from '../outcome.ts';

/**
 * Device passthrough (VFIO): which PCI functions KubeVirt's PCI device plugin could hand to a VM,
 * and why the others cannot, from sysfs under the host root (host/pci-walk.ts, bounded), summarised
 * as counts per vendor:device and state (host/passthrough-inventory.ts). Informational: it passes,
 * skips, or warns when a device bound to vfio-pci is still unusable; it never fails, so it never
 * costs the tier or readiness of a node for ordinary VMs.
 */
const IDS = ['passthrough'] as const;
type PassthroughCheckId = (typeof IDS)[number];

/** `absent`: no sys/bus/pci/devices under the host root (no sysfs, or a platform without PCI). */
export type PassthroughFacts = { present: false } | ({ present: true } & HostDevices);

export interface PassthroughFamilyFacts {
  passthrough: Observation<PassthroughFacts>;
}

async function probePassthrough(hostRoot: string): Promise<Observation<PassthroughFacts>> {
  const walked = await walkPci(hostRoot);
  if (walked.state === 'unreadable') return { state: 'unknown', reason: walked.reason };
  if (walked.state === 'absent') return { state: 'ok', value: { present: false } };
  return { state: 'ok', value: { present: true, ...summarisePassthrough(walked.walk) } };
}

/** The compact inventory for the report, when the probe has one. */
export function hostDevicesOf(facts: PassthroughFamilyFacts): HostDevices | null {
  if (facts.passthrough.state !== 'ok' || !facts.passthrough.value.present) return null;
  const { present: _present, ...devices } = facts.passthrough.value;
  return devices;
}

const countOf = (rows: readonly PciDeviceRow[]): number => rows.reduce((sum, row) => sum + row.count, 0);
/** A row's vendor:device, or that it was not read (never a made-up id). */
const idOf = (row: PciDeviceRow): string => row.selector ?? `id unread (${row.unread ?? 'sysfs'})`;
const listed = (rows: readonly PciDeviceRow[]): string => rows.slice(0, 4).map((row) => `${idOf(row)} ×${row.count}`).join(', ') + (rows.length > 4 ? ` (+${rows.length - 4} more ids)` : '');

function evaluatePassthrough(observation: Observation<PassthroughFacts>): CheckOutcomeOf<PassthroughCheckId> {
  const id = 'passthrough';
  if (observation.state === 'unknown') return { id, status: 'error', message: observation.reason };
  const facts = observation.value;
  if (!facts.present) return { id, status: 'skip', message: 'sys/bus/pci/devices does not exist under the host root: no PCI inventory to look at' };
  if (facts.functions === 0) return { id, status: 'skip', message: 'sys/bus/pci/devices lists no PCI functions: nothing to pass through' };
  const unreadRows = facts.pci.filter((row) => row.selector === undefined || row.class === undefined);
  const hiddenRows = facts.pci.filter((row) => row.selector !== undefined && row.idNotInUevent);
  const unread =
    (unreadRows.length > 0 ? `; ${countOf(unreadRows)} PCI function(s) whose id or class could not be read (${unreadRows[0]?.unread ?? 'sysfs'}), counted under no vendor:device` : '') +
    (hiddenRows.length > 0 ? `; ${countOf(hiddenRows)} PCI function(s) whose uevent gives no PCI_ID (${hiddenRows[0]?.unread ?? 'uevent'}), so KubeVirt's device plugin, which reads the id only there, does not offer them` : '');
  const partial = `${facts.truncated ? ` (the first ${MAX_PCI_FUNCTIONS} PCI functions read)` : ''}${unread}`;
  const mediated = facts.mediated.filter((row) => row.available + row.created > 0);
  const mdev = mediated.length > 0 ? `; mediated types: ${mediated.slice(0, 4).map((row) => `${row.name} (${row.available} available, ${row.created} created)`).join(', ')}` : '';
  const observed = {
    functions: facts.functions,
    truncated: facts.truncated,
    byState: Object.fromEntries(PASSTHROUGH_STATES.map((state) => [state, countOf(facts.pci.filter((row) => row.state === state))])),
    mediatedTypes: facts.mediated.length,
  };
  if (!facts.iommu) {
    return {
      id,
      status: 'pass',
      message: `IOMMU off: none of the ${facts.functions} PCI functions is in an IOMMU group, so no device is offered for passthrough; ordinary VMs do not need it${mdev}${partial}`,
      hint: 'Only for passthrough: enable VT-d/AMD-Vi (or give a VM host a virtual IOMMU) and boot with intel_iommu=on or amd_iommu=on.',
      observed,
    };
  }
  const ready = facts.pci.filter((row) => row.state === 'vfio-ready');
  const stuck = facts.pci.filter((row) => row.state === 'group-not-viable' || row.state === 'no-vfio-node');
  if (stuck.length > 0) {
    const first = stuck[0] as PciDeviceRow;
    return {
      id,
      status: 'warn',
      message: `${countOf(stuck)} PCI function(s) bound to vfio-pci are not usable for passthrough: ${idOf(first)} ${first.state} (${first.blocker ?? ''})${stuck.length > 1 ? ` (+${stuck.length - 1} more ids)` : ''}; ${countOf(ready)} ready${partial}`,
      hint:
        first.state === 'group-not-viable'
          ? 'Bind every device of that IOMMU group to vfio-pci (or unbind it from its host driver), or move the card to a slot with its own group; the kernel hands a group to a VM only whole.'
          : 'Load the vfio and vfio_iommu_type1 modules (or iommufd) so the kernel creates /dev/vfio/<group>, and mount /dev/vfio into the agent.',
      observed,
    };
  }
  if (ready.length === 0) {
    return { id, status: 'pass', message: `IOMMU on, ${facts.functions} PCI functions; none bound to vfio-pci, so KubeVirt offers no PCI host device here (bind one to vfio-pci to pass it through)${mdev}${partial}`, observed };
  }
  return { id, status: 'pass', message: `IOMMU on; ${countOf(ready)} PCI function(s) ready for VFIO passthrough: ${listed(ready)}${mdev}${partial}`, observed };
}

export const passthroughFamily = {
  ids: IDS,
  probe: async ({ hostRoot }: ProbeContext): Promise<PassthroughFamilyFacts> => ({ passthrough: await probePassthrough(hostRoot) }),
  synchronousProbe: true,
  evaluate: (facts: PassthroughFamilyFacts) => [evaluatePassthrough(facts.passthrough)],
  report: {
    fields: ['hostDevices'],
    build: (facts: PassthroughFamilyFacts) => {
      const hostDevices = hostDevicesOf(facts);
      return hostDevices ? { hostDevices } : {};
    },
  },
  example: {
    passthrough: {
      state: 'ok',
      value: {
        present: true,
        iommu: true,
        functions: 40,
        truncated: false,
        pci: [{ selector: '8086:1572', class: '020000', state: 'bound-to-host-driver', count: 4, driver: 'i40e' }],
        mediated: [],
      },
    },
  } satisfies PassthroughFamilyFacts,
} satisfies CheckFamily;
