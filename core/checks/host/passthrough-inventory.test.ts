import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepsGroupViable, summarisePassthrough } from './passthrough-inventory.ts';
import type { PciFunctionReading, PciWalk } from './pci-walk.ts';

const fn = (address: string, ids: string, pciClass: string, driver: string | null, iommuGroup: string | null, mdevTypes: PciFunctionReading['mdevTypes'] = []): PciFunctionReading => {
  const [vendor = '', device = ''] = ids.split(':');
  return { address, vendor, device, class: pciClass, driver, iommuGroup, mdevTypes };
};
const walk = (functions: PciFunctionReading[], vfioNodes: string[] = [], mdevInstances: string[] = [], listed = functions.length): PciWalk => ({ functions, listed, vfioNodes, mdevInstances });
const stateOf = (devices: ReturnType<typeof summarisePassthrough>, selector: string) => devices.pci.filter((row) => row.selector === selector).map((row) => row.state);

describe('the kernel viability rule (drivers/vfio/group.c vfio_dev_viable)', () => {
  it.each([
    ['driver-less', null, '040300', true],
    ['vfio-pci', 'vfio-pci', '030000', true],
    ['a vfio-pci variant driver', 'mlx5_vfio_pci', '020000', true],
    ['pci-stub', 'pci-stub', '040300', true],
    ['a PCI-to-PCI bridge on pcieport', 'pcieport', '060400', true],
    ['a CardBus bridge', 'yenta_cardbus', '060700', true],
    ['a host driver on an endpoint', 'snd_hda_intel', '040300', false],
    ['a host driver on a host bridge (normal header)', 'some_agp', '060000', false],
  ] as const)('%s', (_, driver, pciClass, viable) => {
    expect(keepsGroupViable({ driver, class: pciClass })).toBe(viable);
  });
});

describe('summarisePassthrough', () => {
  it('a GPU whose audio function is on snd_hda_intel: group not viable, naming the blocker', () => {
    const devices = summarisePassthrough(walk([fn('0000:01:00.0', '10de:2204', '030000', 'vfio-pci', '14'), fn('0000:01:00.1', '10de:1aef', '040300', 'snd_hda_intel', '14')], ['14']));
    expect(devices.pci.find((row) => row.selector === '10DE:2204')).toMatchObject({ state: 'group-not-viable', blocker: expect.stringContaining('0000:01:00.1 (10DE:1AEF) in IOMMU group 14 is bound to snd_hda_intel') });
    expect(stateOf(devices, '10DE:1AEF')).toEqual(['bound-to-host-driver']);
  });

  it('the same GPU once its audio function is on pci-stub, driver-less, or vfio-pci: ready', () => {
    for (const audio of ['pci-stub', null, 'vfio-pci']) {
      const devices = summarisePassthrough(walk([fn('0000:01:00.0', '10de:2204', '030000', 'vfio-pci', '14'), fn('0000:01:00.1', '10de:1aef', '040300', audio, '14')], ['14']));
      expect(stateOf(devices, '10DE:2204')).toEqual(['vfio-ready']);
    }
  });

  it('a bridge on pcieport in the group does not spoil it', () => {
    const devices = summarisePassthrough(walk([fn('0000:00:1c.0', '8086:a110', '060400', 'pcieport', '7'), fn('0000:03:00.0', '8086:1533', '020000', 'vfio-pci', '7')], ['7']));
    expect(stateOf(devices, '8086:1533')).toEqual(['vfio-ready']);
  });

  it('vfio-pci without dev/vfio/<group>: no-vfio-node; no group: no-iommu; no driver: unbound', () => {
    const devices = summarisePassthrough(walk([fn('0000:01:00.0', '10de:2204', '030000', 'vfio-pci', '3'), fn('0000:02:00.0', '1af4:1000', '020000', 'virtio-pci', null), fn('0000:03:00.0', '1234:1111', '030000', null, '5')]));
    expect(stateOf(devices, '10DE:2204')).toEqual(['no-vfio-node']);
    expect(devices.pci.find((row) => row.selector === '10DE:2204')?.blocker).toBe('dev/vfio/3 is absent');
    expect(stateOf(devices, '1AF4:1000')).toEqual(['no-iommu']);
    expect(stateOf(devices, '1234:1111')).toEqual(['unbound']);
    expect(devices.iommu).toBe(true);
  });

  it('a function whose id was not read gets a row without selector or class, saying why; it is never counted as 0000:0000', () => {
    const unread = 'uevent (EISDIR), vendor (ENOENT), device (ENOENT), class (ENOENT)';
    const unknown: PciFunctionReading = { address: '0000:3b:00.0', vendor: null, device: null, class: null, unread, driver: 'vfio-pci', iommuGroup: '30', mdevTypes: [] };
    const devices = summarisePassthrough(walk([fn('0000:17:00.0', '10de:2236', '030200', 'vfio-pci', '12'), unknown], ['12', '30']));
    expect(devices.pci).toEqual([
      { selector: '10DE:2236', class: '030200', state: 'vfio-ready', count: 1 },
      { unread, state: 'vfio-ready', count: 1 },
    ]);
  });

  it('a group member of unread id and class on a host driver spoils the group, and the blocker says it was not read', () => {
    const member: PciFunctionReading = { address: '0000:01:00.1', vendor: null, device: null, class: null, unread: 'uevent (EISDIR)', driver: 'snd_hda_intel', iommuGroup: '14', mdevTypes: [] };
    const devices = summarisePassthrough(walk([fn('0000:01:00.0', '10de:2204', '030000', 'vfio-pci', '14'), member], ['14']));
    expect(devices.pci.find((row) => row.selector === '10DE:2204')).toMatchObject({
      state: 'group-not-viable',
      blocker: '0000:01:00.1 (id unread, class unread: not known to be a bridge) in IOMMU group 14 is bound to snd_hda_intel',
    });
  });

  it('a host without IOMMU groups says so', () => {
    const devices = summarisePassthrough(walk([fn('0000:00:01.0', '1af4:1000', '020000', 'virtio-pci', null)]));
    expect(devices).toMatchObject({ iommu: false, functions: 1, truncated: false });
  });

  it('counts functions of one id and state in one row, and says when the walk was cut short', () => {
    const functions = Array.from({ length: 6 }, (_, i) => fn(`0000:41:00.${i}`, '15b3:101e', '020000', 'vfio-pci', String(40 + i)));
    const devices = summarisePassthrough(walk(functions, ['40', '41', '42', '43', '44', '45'], [], 9000));
    expect(devices.pci).toEqual([{ selector: '15B3:101E', class: '020000', state: 'vfio-ready', count: 6 }]);
    expect(devices.truncated).toBe(true);
  });

  it('mediated types: available instances summed over parents, created instances by name as KubeVirt matches them', () => {
    const types = (available: number) => [{ type: 'nvidia-222', name: 'GRID T4-1Q', availableInstances: available }];
    const devices = summarisePassthrough(walk([fn('0000:3b:00.0', '10de:1eb8', '030200', 'nvidia', '20', types(4)), fn('0000:af:00.0', '10de:1eb8', '030200', 'nvidia', '21', types(16))], [], ['GRID T4-1Q', 'GRID T4-1Q']));
    expect(devices.mediated).toEqual([{ name: 'GRID_T4-1Q', type: 'nvidia-222', available: 20, created: 2 }]);
  });

  it('orders rows of one state by selector, then class, as localeCompare does, for hex ids and for any other text', () => {
    // Ids as sysfs gives them (hex, some uppercase or 0x-prefixed, letters next to digits) and text that is not hex.
    const id = (length: number) => fc.oneof(fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${length}}$`)), fc.string({ maxLength: length + 2 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(id(4), id(4), id(6)), { minLength: 2, maxLength: 12 }), (ids) => {
        const functions = ids.map(([vendor, device, pciClass], index) => ({ ...fn(`0000:00:${index.toString(16).padStart(2, '0')}.0`, '', pciClass, null, '1'), vendor, device }));
        const rows = summarisePassthrough(walk(functions)).pci;
        // Every id here was read, so every row has a selector and a class.
        const expected = [...rows].sort((a, b) => (a.selector ?? '').localeCompare(b.selector ?? '') || (a.class ?? '').localeCompare(b.class ?? ''));
        expect(rows.map((row) => `${row.selector}|${row.class}`)).toEqual(expected.map((row) => `${row.selector}|${row.class}`));
      }),
      { numRuns: 300 },
    );
  });
});
