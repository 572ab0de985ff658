/**
 * PCI layouts of the passthrough fixture hosts, as sysfs would show them: each function's ids,
 * class, driver and IOMMU group, and which dev/vfio/<group> nodes exist. `pci-tree.ts` writes them.
 */

export interface PciFunctionSpec {
  address: string;
  /** Four hex digits each, lower case, as sysfs writes them after 0x. */
  vendor: string;
  device: string;
  /** Six hex digits. */
  class: string;
  driver?: string;
  iommuGroup?: number;
  /** Mediated types this function offers: directory, name file, available_instances. */
  mdevTypes?: Array<{ type: string; name: string; available: number }>;
}

export interface PciLayout {
  functions: PciFunctionSpec[];
  /** Groups whose dev/vfio/<group> node exists (the kernel makes it once vfio-pci binds a device of the group). */
  vfioGroups: number[];
}

const ROOT_COMPLEX: PciFunctionSpec[] = [
  { address: '0000:00:00.0', vendor: '8086', device: '09a2', class: '060000', iommuGroup: 0 },
  { address: '0000:00:01.0', vendor: '8086', device: '347a', class: '060400', driver: 'pcieport', iommuGroup: 1 },
];

/**
 * An NVIDIA A10 (10de:2236, a data-centre card with no audio function) behind its own root port,
 * alone in IOMMU group 12, bound to vfio-pci, dev/vfio/12 present; a T4 (10de:1eb8) on the
 * nvidia vGPU host driver offering the mediated type nvidia-222 ("GRID T4-1Q", 16 available);
 * two i40e ports on the host.
 */
export const GPU_CLEAN_GROUP: PciLayout = {
  functions: [
    ...ROOT_COMPLEX,
    { address: '0000:17:00.0', vendor: '10de', device: '2236', class: '030200', driver: 'vfio-pci', iommuGroup: 12 },
    { address: '0000:3b:00.0', vendor: '10de', device: '1eb8', class: '030200', driver: 'nvidia', iommuGroup: 30, mdevTypes: [{ type: 'nvidia-222', name: 'GRID T4-1Q', available: 16 }] },
    { address: '0000:31:00.0', vendor: '8086', device: '1572', class: '020000', driver: 'i40e', iommuGroup: 20 },
    { address: '0000:31:00.1', vendor: '8086', device: '1572', class: '020000', driver: 'i40e', iommuGroup: 21 },
  ],
  vfioGroups: [12],
};

/**
 * A GeForce RTX 3090 (10de:2204) bound to vfio-pci, sharing IOMMU group 14 with its own HDMI
 * audio function (10de:1aef) that snd_hda_intel still holds: the kernel refuses the group.
 */
export const GPU_SHARED_GROUP: PciLayout = {
  functions: [
    ...ROOT_COMPLEX,
    { address: '0000:01:00.0', vendor: '10de', device: '2204', class: '030000', driver: 'vfio-pci', iommuGroup: 14 },
    { address: '0000:01:00.1', vendor: '10de', device: '1aef', class: '040300', driver: 'snd_hda_intel', iommuGroup: 14 },
    { address: '0000:02:00.0', vendor: '144d', device: 'a80a', class: '010802', driver: 'nvme', iommuGroup: 15 },
  ],
  vfioGroups: [14],
};

/**
 * A large server: 500 PCI functions. A host bridge, 15 root ports, 480 ConnectX-6 Dx virtual
 * functions (15b3:101e) each in its own group, 8 of them on vfio-pci with their dev/vfio nodes and
 * 472 on mlx5_core, plus 4 physical ports (15b3:101d) on mlx5_core.
 */
export const MANY_FUNCTIONS: PciLayout = (() => {
  const functions: PciFunctionSpec[] = [{ address: '0000:00:00.0', vendor: '8086', device: '09a2', class: '060000', iommuGroup: 0 }];
  for (let port = 1; port <= 15; port++) {
    functions.push({ address: `0000:00:${port.toString(16).padStart(2, '0')}.0`, vendor: '8086', device: '347a', class: '060400', driver: 'pcieport', iommuGroup: port });
  }
  for (let pf = 0; pf < 4; pf++) {
    functions.push({ address: `0000:${(0x40 + pf).toString(16)}:00.0`, vendor: '15b3', device: '101d', class: '020000', driver: 'mlx5_core', iommuGroup: 16 + pf });
  }
  const vfioGroups: number[] = [];
  for (let vf = 0; vf < 480; vf++) {
    const group = 20 + vf;
    const bus = 0x40 + Math.floor(vf / 120);
    const slot = Math.floor((vf % 120) / 8);
    const fn = vf % 8;
    const onVfio = vf < 8;
    if (onVfio) vfioGroups.push(group);
    functions.push({
      address: `0000:${bus.toString(16)}:${(slot + 1).toString(16).padStart(2, '0')}.${fn}`,
      vendor: '15b3',
      device: '101e',
      class: '020000',
      driver: onVfio ? 'vfio-pci' : 'mlx5_core',
      iommuGroup: group,
    });
  }
  return { functions, vfioGroups };
})();
