/**
 * Writes a PCI layout (profiles/pci.ts) into a fixture host root the way sysfs shows it:
 * sys/bus/pci/devices/<address>/{uevent,vendor,device,class}, `driver` and `iommu_group` as symlinks to
 * sys/bus/pci/drivers/<driver> and sys/kernel/iommu_groups/<n> (relative, as the kernel writes them),
 * each group's devices/<address> link back, mediated types under mdev_supported_types (the parent
 * listed in sys/class/mdev_bus), and
 * dev/vfio/<group>. The dev/vfio entries are empty regular files, not the kernel's character
 * devices: virtgate only lists that directory, it never opens a group.
 *
 * Written from the kernel's interfaces, not from virtgate's output:
 *  - uevent: drivers/pci/pci-driver.c pci_uevent writes PCI_CLASS=%04X, PCI_ID=%04X:%04X and
 *    PCI_SLOT_NAME; drivers/base/core.c dev_uevent writes DRIVER= when a driver is bound.
 *    KubeVirt v1.9.0 reads the id from PCI_ID alone (virt-handler device-manager common.go);
 *  - vendor, device, class: drivers/pci/pci-sysfs.c, 0x%04x, 0x%04x and 0x%06x;
 *  - Documentation/ABI/testing/sysfs-kernel-iommu_groups: a directory per group under
 *    /sys/kernel/iommu_groups with a `devices` directory of links to its members; each member's
 *    `iommu_group` link names the group (drivers/iommu/iommu.c);
 *  - Documentation/driver-api/vfio.rst, "VFIO Usage Example": binding a group's device to
 *    vfio-pci makes /dev/vfio/<group>, so the profiles list a group's node only where vfio-pci
 *    holds one of its devices;
 *  - Documentation/driver-api/vfio-mediated-device.rst: a parent's
 *    mdev_supported_types/<type-id>/{name,available_instances}; mdev_register_parent links the
 *    parent into /sys/class/mdev_bus, where KubeVirt looks for types (mediated_devices_types.go).
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
