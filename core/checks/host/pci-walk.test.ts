import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/lab/hosts/paths.ts';
import { type PciWalk, walkPci } from './pci-walk.ts';

/**
 * The reads the walk leaves out stand on kernel invariants (pci-walk.ts). Each case builds a root
 * where the left-out file would say something else, so the test shows which source wins and fails
 * if the walk starts reading (or stops reading) it. The fixture hosts (test/hosts) cover the
 * consistent trees the kernel writes.
 */
let base = '';
let remove = async () => {};
let counter = 0;

beforeAll(async () => {
  ({ dir: base, remove } = await tempDir('pci-walk'));
});
afterAll(() => remove());

interface FunctionSpec {
  address: string;
  /** Written as the uevent file; a directory in its place when null (unreadable). */
  uevent: string | null;
  driverLink?: string;
  iommuLink?: string;
}

async function root(functions: FunctionSpec[], extra: (dir: string) => Promise<void> = async () => {}): Promise<string> {
  counter += 1;
  const dir = path.join(base, String(counter));
  for (const fn of functions) {
    const device = path.join(dir, 'sys/bus/pci/devices', fn.address);
    await mkdir(device, { recursive: true });
    if (fn.uevent === null) await mkdir(path.join(device, 'uevent'));
    else await writeFile(path.join(device, 'uevent'), fn.uevent);
    if (fn.driverLink) {
      await mkdir(path.join(dir, 'sys/bus/pci/drivers', fn.driverLink), { recursive: true });
      await symlink(`../../../../bus/pci/drivers/${fn.driverLink}`, path.join(device, 'driver'));
    }
    if (fn.iommuLink) await symlink(`../../../../kernel/iommu_groups/${fn.iommuLink}`, path.join(device, 'iommu_group'));
  }
  await extra(dir);
  return dir;
}

async function walked(hostRoot: string): Promise<PciWalk> {
  const result = await walkPci(hostRoot);
  if (result.state !== 'ok') throw new Error(`walk: ${result.state}`);
  return result.walk;
}

const UEVENT = (driver: string | null) => `${driver === null ? '' : `DRIVER=${driver}\n`}PCI_CLASS=30000\nPCI_ID=10DE:2204\nPCI_SLOT_NAME=0000:01:00.0\n`;

describe('walkPci: the driver', () => {
  it("comes from uevent's DRIVER line (the kernel writes it from the driver the link names)", async () => {
    const walk = await walked(await root([{ address: '0000:01:00.0', uevent: UEVENT('vfio-pci'), driverLink: 'nvidia' }]));
    expect(walk.functions[0]).toMatchObject({ vendor: '10de', device: '2204', class: '030000', driver: 'vfio-pci' });
    // uevent gave every id: nothing unread, and the id is where KubeVirt reads it.
    expect(walk.functions[0]?.unread).toBeUndefined();
    expect(walk.functions[0]?.idNotInUevent).toBeUndefined();
  });

  it('is none when uevent has no DRIVER line, whatever a link says', async () => {
    const walk = await walked(await root([{ address: '0000:01:00.0', uevent: UEVENT(null), driverLink: 'nvidia' }]));
    expect(walk.functions[0]?.driver).toBeNull();
  });

  it('is read from the driver link when uevent cannot be read', async () => {
    const walk = await walked(await root([{ address: '0000:01:00.0', uevent: null, driverLink: 'vfio-pci' }, { address: '0000:02:00.0', uevent: null }]));
    expect(walk.functions.map((fn) => fn.driver)).toEqual(['vfio-pci', null]);
  });
});

/**
 * Ids that were not read are unknown, never 0000:0000 class 000000. The tests run as root, for
 * whom chmod 000 does not stop a read, so the uevent is made unreadable in ways that stop root
 * too: a directory in its place (open succeeds, read() gives EISDIR) or a symlink to nothing
 * (open() gives ENOENT). sysfs gives a process an error the same way, at open or at read.
 */
describe('walkPci: ids when uevent cannot be read', () => {
  const danglingUevent = async (dir: string) => {
    const uevent = path.join(dir, 'sys/bus/pci/devices/0000:3b:00.0/uevent');
    await rm(uevent, { recursive: true });
    await symlink('../../../../nowhere/uevent', uevent);
  };
  // The attribute files as drivers/pci/pci-sysfs.c writes them: vendor and device as 0x%04x, class as 0x%06x.
  const attributes = (ids: { vendor?: string; device?: string; class?: string }) => async (dir: string) => {
    const device = path.join(dir, 'sys/bus/pci/devices/0000:3b:00.0');
    for (const [name, text] of Object.entries(ids)) await writeFile(path.join(device, name), text);
  };

  it('are unknown, with what failed, when neither uevent nor the vendor, device and class files can be read', async () => {
    const walk = await walked(await root([{ address: '0000:3b:00.0', uevent: null }]));
    expect(walk.functions[0]).toMatchObject({ vendor: null, device: null, class: null, unread: 'uevent (EISDIR), vendor (ENOENT), device (ENOENT), class (ENOENT)', idNotInUevent: true });
    const dangling = await walked(await root([{ address: '0000:3b:00.0', uevent: null }], danglingUevent));
    expect(dangling.functions[0]).toMatchObject({ vendor: null, device: null, class: null, unread: 'uevent (ENOENT), vendor (ENOENT), device (ENOENT), class (ENOENT)' });
  });

  it('are read from the vendor, device and class files when uevent cannot be, saying the id is not in uevent (where KubeVirt reads it)', async () => {
    const hostRoot = await root([{ address: '0000:3b:00.0', uevent: null }], async (dir) => {
      await danglingUevent(dir);
      await attributes({ vendor: '0x10de\n', device: '0x1eb8\n', class: '0x030200\n' })(dir);
    });
    expect((await walked(hostRoot)).functions[0]).toMatchObject({ vendor: '10de', device: '1eb8', class: '030200', unread: 'uevent (ENOENT)', idNotInUevent: true });
  });

  it('keeps each id the files give and leaves unknown only the one they do not', async () => {
    const hostRoot = await root([{ address: '0000:3b:00.0', uevent: null }], attributes({ vendor: '0x10de\n', class: '0x030200\n' }));
    expect((await walked(hostRoot)).functions[0]).toMatchObject({ vendor: '10de', device: null, class: '030200', unread: 'uevent (EISDIR), device (ENOENT)' });
  });

  it('a uevent without PCI_ID or PCI_CLASS is not read as zeros either', async () => {
    const hostRoot = await root([{ address: '0000:3b:00.0', uevent: 'DRIVER=nvidia\nPCI_SLOT_NAME=0000:3b:00.0\n' }], attributes({ vendor: '0x10de\n' }));
    expect((await walked(hostRoot)).functions[0]).toMatchObject({ vendor: '10de', device: null, class: null, driver: 'nvidia', unread: 'uevent (no PCI_ID or PCI_CLASS), device (ENOENT), class (ENOENT)' });
  });
});

describe('walkPci: IOMMU groups and VFIO nodes', () => {
  const vfio = async (dir: string) => {
    await mkdir(path.join(dir, 'dev/vfio'), { recursive: true });
    await writeFile(path.join(dir, 'dev/vfio/14'), '');
  };

  it('reads the iommu_group links and lists dev/vfio when sys/kernel/iommu_groups has a group', async () => {
    const hostRoot = await root([{ address: '0000:01:00.0', uevent: UEVENT('vfio-pci'), iommuLink: '14' }], async (dir) => {
      await mkdir(path.join(dir, 'sys/kernel/iommu_groups/14/devices'), { recursive: true });
      await vfio(dir);
    });
    const walk = await walked(hostRoot);
    expect(walk.functions[0]?.iommuGroup).toBe('14');
    expect(walk.vfioNodes).toEqual(['14']);
  });

  it.each([
    ['is empty', async (dir: string) => mkdir(path.join(dir, 'sys/kernel/iommu_groups'), { recursive: true })],
    ['does not exist', async () => {}],
  ])('reads neither when sys/kernel/iommu_groups %s (a link or node there would name a group that is not)', async (_, groups) => {
    const hostRoot = await root([{ address: '0000:01:00.0', uevent: UEVENT('vfio-pci'), iommuLink: '14' }], async (dir) => {
      await groups(dir);
      await vfio(dir);
    });
    const walk = await walked(hostRoot);
    expect(walk.functions[0]?.iommuGroup).toBeNull();
    expect(walk.vfioNodes).toEqual([]);
  });
});

describe('walkPci: mediated devices', () => {
  const instance = async (dir: string) => {
    const type = path.join(dir, 'sys/bus/pci/devices/0000:01:00.0/mdev_supported_types/nvidia-222');
    await mkdir(type, { recursive: true });
    await writeFile(path.join(type, 'name'), 'GRID T4-1Q\n');
    await mkdir(path.join(dir, 'sys/bus/mdev/devices/0b4e4fbc-6f6e-4d4c-9c4f-3c8b1e2f0a11'), { recursive: true });
    await symlink('../../../../bus/pci/devices/0000:01:00.0/mdev_supported_types/nvidia-222', path.join(dir, 'sys/bus/mdev/devices/0b4e4fbc-6f6e-4d4c-9c4f-3c8b1e2f0a11/mdev_type'));
  };

  it('are listed when sys/class/mdev_bus lists a parent', async () => {
    const hostRoot = await root([{ address: '0000:01:00.0', uevent: UEVENT('nvidia') }], async (dir) => {
      await instance(dir);
      await mkdir(path.join(dir, 'sys/class/mdev_bus'), { recursive: true });
      await symlink('../../bus/pci/devices/0000:01:00.0', path.join(dir, 'sys/class/mdev_bus/0000:01:00.0'));
    });
    const walk = await walked(hostRoot);
    expect(walk.mdevInstances).toEqual(['GRID T4-1Q']);
    expect(walk.functions[0]?.mdevTypes).toEqual([{ type: 'nvidia-222', name: 'GRID T4-1Q', availableInstances: null }]);
  });

  it('are not listed without a parent in sys/class/mdev_bus (the kernel links every parent there)', async () => {
    const walk = await walked(await root([{ address: '0000:01:00.0', uevent: UEVENT('nvidia') }], instance));
    expect(walk.mdevInstances).toEqual([]);
  });
});
