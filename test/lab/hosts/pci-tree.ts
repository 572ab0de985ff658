/**
 * Writes a PCI layout (profiles/pci.ts) into a fixture host root the way sysfs shows it:
 * sys/bus/pci/devices/<address>/{uevent,vendor,device,class}, `driver` and `iommu_group` as symlinks to
 * sys/bus/pci/drivers/<driver> and sys/kernel/iommu_groups/<n> (relative, as the kernel writes them),
 * each group's devices/<address> link back, mediated types under mdev_supported_types (the parent
 * listed in sys/class/mdev_bus), and
 * dev/vfio/<group>. The dev/vfio entries are empty regular files, not the kernel's character
 * devices: virtgate only lists that directory, it never opens a group.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { insideRoot } from './host-files.ts';
import type { PciLayout } from './profiles/pci.ts';

export async function writePciTree(root: string, layout: PciLayout): Promise<void> {
  for (const fn of layout.functions) {
    const dir = insideRoot(root, `sys/bus/pci/devices/${fn.address}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'vendor'), `0x${fn.vendor}\n`);
    await writeFile(path.join(dir, 'device'), `0x${fn.device}\n`);
    await writeFile(path.join(dir, 'class'), `0x${fn.class}\n`);
    // As the kernel's pci_uevent writes it: upper-case ids, the class without leading zeros.
    const uevent = [
      ...(fn.driver === undefined ? [] : [`DRIVER=${fn.driver}`]),
      `PCI_CLASS=${Number.parseInt(fn.class, 16).toString(16).toUpperCase()}`,
      `PCI_ID=${fn.vendor.toUpperCase()}:${fn.device.toUpperCase()}`,
      `PCI_SLOT_NAME=${fn.address}`,
    ];
    await writeFile(path.join(dir, 'uevent'), `${uevent.join('\n')}\n`);
    if (fn.driver !== undefined) {
      await mkdir(insideRoot(root, `sys/bus/pci/drivers/${fn.driver}`), { recursive: true });
      await symlink(`../../../../bus/pci/drivers/${fn.driver}`, path.join(dir, 'driver'));
    }
    if (fn.iommuGroup !== undefined) {
      const group = insideRoot(root, `sys/kernel/iommu_groups/${fn.iommuGroup}/devices`);
      await mkdir(group, { recursive: true });
      await symlink(`../../../../kernel/iommu_groups/${fn.iommuGroup}`, path.join(dir, 'iommu_group'));
      await symlink(`../../../../bus/pci/devices/${fn.address}`, path.join(group, fn.address));
    }
    if (fn.mdevTypes?.length) {
      await mkdir(insideRoot(root, 'sys/class/mdev_bus'), { recursive: true });
      await symlink(`../../bus/pci/devices/${fn.address}`, insideRoot(root, `sys/class/mdev_bus/${fn.address}`));
    }
    for (const type of fn.mdevTypes ?? []) {
      const typeDir = path.join(dir, 'mdev_supported_types', type.type);
      await mkdir(typeDir, { recursive: true });
      await writeFile(path.join(typeDir, 'name'), `${type.name}\n`);
      await writeFile(path.join(typeDir, 'available_instances'), `${type.available}\n`);
    }
  }
  if (layout.vfioGroups.length > 0) {
    const vfio = insideRoot(root, 'dev/vfio');
    await mkdir(vfio, { recursive: true });
    await writeFile(path.join(vfio, 'vfio'), '');
    for (const group of layout.vfioGroups) await writeFile(path.join(vfio, String(group)), '');
  }
}
