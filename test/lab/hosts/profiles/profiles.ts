/**
 * The fixture host profiles as data: what each host's files say and how its device nodes are
 * made, and the tier virtgate must decide for it. `build-host.ts` writes them.
 */
import type { DeviceName } from '../../../../core/checks/host/device-numbers.ts';
import type { Tier } from '../../../../core/checks/verdict.ts';
import type { DevicePlan } from '../device-nodes.ts';
import {
  AMD_GENOA_CPU,
  AMD_GENOA_SEV_SNP_CPU,
  arm64Cpuinfo,
  CASCADE_LAKE,
  INTEL_FLAGS_BASE,
  INTEL_FLAGS_TAIL,
  INTEL_GUEST_FLAGS_BASE,
  INTEL_GUEST_FLAGS_TAIL,
  INTEL_METAL_CPU,
  INTEL_NESTED_CPU,
  INTEL_NO_VMX_CPU,
  INTEL_TDX_CPU,
  INTEL_VMX_FLAGS,
  x86Cpuinfo,
} from './cpuinfo.ts';
import { OS_RELEASE } from './os-release.ts';
import { GPU_CLEAN_GROUP, GPU_SHARED_GROUP, MANY_FUNCTIONS, type PciLayout } from './pci.ts';
import { SEV_SNP_FILES, TDX_FILES } from './confidential.ts';
import { COMMON_BUILTIN, X86_KVM_MODULES } from './proc-modules.ts';

export const HOST_PROFILES = [
  'intel-metal',
  'amd-metal',
  'nested-vm',
  'no-vmx',
  'no-tun',
  'kvm-enodev',
  'kvm-regular-file',
  'rhel9',
  'al2023',
  'arm64-metal',
  'ec2-vm',
  'ec2-metal',
  'arm64-vm',
  'kvm-pvm',
  'gpu-vfio',
  'gpu-shared-group',
  'pci-500',
  'sev-snp-metal',
  'tdx-metal',
] as const;
export type HostProfile = (typeof HOST_PROFILES)[number];

export interface HostSpec {
  cpuinfo: string;
  kernelRelease: string;
  osRelease: string;
  /** Loadable modules listed in proc/modules (and sys/module). */
  modules: string[];
  /** Built-in modules: in sys/module only. */
  builtin: string[];
  nested?: { module: 'kvm_intel' | 'kvm_amd'; value: string };
  iommu: { groups: number; units: string[] };
  devices: Partial<Record<DeviceName, DevicePlan>>;
  tier: Tier;
  /** MemTotal of proc/meminfo, in KiB: the host's RAM less what the firmware and kernel keep. */
  memTotalKiB: number;
  /** sys/class/dmi/id: what the firmware says the machine is. */
  dmi: { sysVendor: string; productName: string; productVersion: string; biosVendor: string };
  /** PCI functions under sys/bus/pci/devices (profiles/pci.ts); absent: no PCI sysfs at all. */
  pci?: PciLayout;
  /** Confidential-guest files (module parameters, proc/misc, the misc cgroup) and whether dev/sev is made (confidential.ts). */
  confidential?: { files: Record<string, string>; sevDevice: boolean };
}

export const PROFILES: Record<HostProfile, HostSpec> = {
  'intel-metal': {
    cpuinfo: x86Cpuinfo(INTEL_METAL_CPU),
    kernelRelease: '5.14.0-284.11.1.el9_2.x86_64',
    osRelease: OS_RELEASE.rhel92,
    modules: X86_KVM_MODULES('kvm_intel'),
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'Y' },
    iommu: { groups: 48, units: ['dmar0', 'dmar1'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 527_543_264, // 512 GiB
    dmi: { sysVendor: 'Dell Inc.', productName: 'PowerEdge R760', productVersion: '', biosVendor: 'Dell Inc.' },
  },
  'amd-metal': {
    cpuinfo: x86Cpuinfo(AMD_GENOA_CPU),
    kernelRelease: '5.14.0-503.14.1.el9_5.x86_64',
    osRelease: OS_RELEASE.rocky95,
    modules: X86_KVM_MODULES('kvm_amd'),
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_amd', value: '1' },
    iommu: { groups: 64, units: ['ivhd0', 'ivhd1'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 791_372_112, // 768 GiB
    dmi: { sysVendor: 'Supermicro', productName: 'AS -2125HS-TNR', productVersion: '0123456789', biosVendor: 'American Megatrends International, LLC.' },
  },
  'nested-vm': {
    cpuinfo: x86Cpuinfo(INTEL_NESTED_CPU),
    kernelRelease: '5.15.0-126-generic',
    osRelease: OS_RELEASE.ubuntu2204,
    modules: X86_KVM_MODULES('kvm_intel'),
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'Y' },
    iommu: { groups: 0, units: [] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 16_374_212, // 16 GiB
    dmi: { sysVendor: 'QEMU', productName: 'Standard PC (Q35 + ICH9, 2009)', productVersion: 'pc-q35-8.2', biosVendor: 'SeaBIOS' },
  },
  'no-vmx': {
    cpuinfo: x86Cpuinfo(INTEL_NO_VMX_CPU),
    kernelRelease: '6.1.0-28-cloud-amd64',
    osRelease: OS_RELEASE.debian12,
    modules: ['tun'],
    builtin: COMMON_BUILTIN,
    iommu: { groups: 0, units: [] },
    devices: { tun: 'usable' },
    tier: 'emulation',
    memTotalKiB: 8_148_064, // 8 GiB
    dmi: { sysVendor: 'Google', productName: 'Google Compute Engine', productVersion: '', biosVendor: 'Google' },
  },
  'no-tun': {
    cpuinfo: x86Cpuinfo(INTEL_NO_VMX_CPU),
    kernelRelease: '6.1.0-28-cloud-amd64',
    osRelease: OS_RELEASE.debian12,
    modules: [],
    builtin: COMMON_BUILTIN,
    iommu: { groups: 0, units: [] },
    devices: {},
    tier: 'none',
    memTotalKiB: 4_025_932, // 4 GiB
    dmi: { sysVendor: 'OpenStack Foundation', productName: 'OpenStack Nova', productVersion: '27.5.1', biosVendor: 'SeaBIOS' },
  },
  'kvm-enodev': {
    // A node left behind (or made by a device plugin) while kvm_intel is not loaded.
    cpuinfo: x86Cpuinfo(INTEL_METAL_CPU),
    kernelRelease: '5.14.0-503.11.1.el9_5.x86_64',
    osRelease: OS_RELEASE.centosStream9,
    modules: ['tun'],
    builtin: COMMON_BUILTIN,
    iommu: { groups: 48, units: ['dmar0', 'dmar1'] },
    devices: { kvm: 'enodev', tun: 'usable' },
    tier: 'emulation',
    memTotalKiB: 263_596_100, // 256 GiB
    dmi: { sysVendor: 'HPE', productName: 'ProLiant DL380 Gen11', productVersion: '', biosVendor: 'HPE' },
  },
  'kvm-regular-file': {
    // A container image or a bad bind mount left an ordinary file at /dev/kvm.
    cpuinfo: x86Cpuinfo(INTEL_METAL_CPU),
    kernelRelease: '5.14.0-427.42.1.el9_4.x86_64',
    osRelease: OS_RELEASE.alma94,
    modules: X86_KVM_MODULES('kvm_intel'),
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'N' },
    iommu: { groups: 48, units: ['dmar0', 'dmar1'] },
    devices: { kvm: 'regular-file', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'emulation',
    memTotalKiB: 395_597_780, // 384 GiB
    dmi: { sysVendor: 'Lenovo', productName: 'ThinkSystem SR650 V3', productVersion: '', biosVendor: 'Lenovo' },
  },
  rhel9: {
    cpuinfo: x86Cpuinfo(INTEL_METAL_CPU),
    kernelRelease: '5.14.0-570.12.1.el9_6.x86_64',
    osRelease: OS_RELEASE.rhel96,
    modules: X86_KVM_MODULES('kvm_intel'),
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'N' },
    iommu: { groups: 96, units: ['dmar0', 'dmar1', 'dmar2', 'dmar3'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 263_608_444, // 256 GiB
    dmi: { sysVendor: 'Dell Inc.', productName: 'PowerEdge R660', productVersion: '', biosVendor: 'Dell Inc.' },
  },
  al2023: {
    // An EKS node on m7i.metal-24xl.
    cpuinfo: x86Cpuinfo(INTEL_METAL_CPU),
    kernelRelease: '6.1.119-129.201.amzn2023.x86_64',
    osRelease: OS_RELEASE.al2023,
    modules: X86_KVM_MODULES('kvm_intel'),
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'Y' },
    iommu: { groups: 80, units: ['dmar0', 'dmar1'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 392_894_212, // 384 GiB
    dmi: { sysVendor: 'Amazon EC2', productName: 'm7i.metal-24xl', productVersion: '', biosVendor: 'Amazon EC2' },
  },
  'arm64-metal': {
    // A Graviton3 c7g.metal on Ubuntu 24.04; on arm64, KVM is built into the kernel.
    cpuinfo: arm64Cpuinfo(4),
    kernelRelease: '6.8.0-1019-aws',
    osRelease: OS_RELEASE.ubuntu2404,
    modules: ['vhost_net', 'vhost', 'vhost_iotlb', 'tap', 'tun'],
    builtin: [...COMMON_BUILTIN, 'kvm'],
    iommu: { groups: 32, units: ['smmu3.0x0000000041000000'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 130_343_468, // 128 GiB
    dmi: { sysVendor: 'Amazon EC2', productName: 'c7g.metal', productVersion: '', biosVendor: 'Amazon EC2' },
  },
  'ec2-vm': {
    // An EKS node on m5.large: a Nitro VM, so no vmx and no /dev/kvm; only emulation is possible.
    cpuinfo: x86Cpuinfo(CASCADE_LAKE(`${INTEL_GUEST_FLAGS_BASE} ${INTEL_GUEST_FLAGS_TAIL}`, { cores: 2 })),
    kernelRelease: '6.1.119-129.201.amzn2023.x86_64',
    osRelease: OS_RELEASE.al2023,
    modules: ['tun'],
    builtin: COMMON_BUILTIN,
    iommu: { groups: 0, units: [] },
    devices: { tun: 'usable' },
    tier: 'emulation',
    memTotalKiB: 7_922_468, // 8 GiB
    dmi: { sysVendor: 'Amazon EC2', productName: 'm5.large', productVersion: '', biosVendor: 'Amazon EC2' },
  },
  'ec2-metal': {
    // The same family as bare metal: m5.metal, where KVM works.
    cpuinfo: x86Cpuinfo(CASCADE_LAKE(`${INTEL_FLAGS_BASE} vmx ${INTEL_FLAGS_TAIL}`, { vmxFlags: INTEL_VMX_FLAGS })),
    kernelRelease: '6.1.119-129.201.amzn2023.x86_64',
    osRelease: OS_RELEASE.al2023,
    modules: X86_KVM_MODULES('kvm_intel'),
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'Y' },
    iommu: { groups: 64, units: ['dmar0', 'dmar1'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 395_880_016, // 384 GiB
    dmi: { sysVendor: 'Amazon EC2', productName: 'm5.metal', productVersion: '', biosVendor: 'Amazon EC2' },
  },
  'arm64-vm': {
    // A Graviton3 c7g.large: a VM, which arm64 cpuinfo cannot show; only DMI says so. No /dev/kvm.
    cpuinfo: arm64Cpuinfo(2),
    kernelRelease: '6.8.0-1019-aws',
    osRelease: OS_RELEASE.ubuntu2404,
    modules: ['tun'],
    builtin: COMMON_BUILTIN,
    iommu: { groups: 0, units: [] },
    devices: { tun: 'usable' },
    tier: 'emulation',
    memTotalKiB: 3_914_944, // 4 GiB
    dmi: { sysVendor: 'Amazon EC2', productName: 'c7g.large', productVersion: '', biosVendor: 'Amazon EC2' },
  },
  'kvm-pvm': {
    // A cloud VM whose kernel serves /dev/kvm through kvm_pvm (paravirtual KVM): no vmx/svm flag,
    // /dev/kvm opens (a 1:3 stand-in here), no vhost-net. A tiny guest runs there; ordinary kernels do not boot.
    cpuinfo: x86Cpuinfo(INTEL_NO_VMX_CPU),
    kernelRelease: '6.18.44-pvm-host',
    osRelease: OS_RELEASE.debian12,
    modules: ['kvm_pvm', 'kvm', 'irqbypass', 'tun'],
    builtin: COMMON_BUILTIN,
    iommu: { groups: 0, units: [] },
    devices: { kvm: 'usable', tun: 'usable' },
    tier: 'emulation',
    // A KVM guest on a cloud that does not say which: QEMU's defaults.
    memTotalKiB: 8_137_916, // 8 GiB
    dmi: { sysVendor: 'QEMU', productName: 'Standard PC (i440FX + PIIX, 1996)', productVersion: 'pc-i440fx-9.2', biosVendor: 'SeaBIOS' },
  },
  // Device passthrough hosts: Enterprise Linux bare metal as intel-metal, with a PCI tree.
  'gpu-vfio': {
    cpuinfo: x86Cpuinfo(INTEL_METAL_CPU),
    kernelRelease: '5.14.0-570.12.1.el9_6.x86_64',
    osRelease: OS_RELEASE.rhel96,
    modules: [...X86_KVM_MODULES('kvm_intel'), 'vfio_pci', 'vfio_pci_core', 'vfio_iommu_type1', 'vfio'],
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'Y' },
    iommu: { groups: 48, units: ['dmar0', 'dmar1'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 527_561_920, // 512 GiB
    dmi: { sysVendor: 'Dell Inc.', productName: 'PowerEdge R760xa', productVersion: '', biosVendor: 'Dell Inc.' },
    pci: GPU_CLEAN_GROUP,
  },
  'gpu-shared-group': {
    cpuinfo: x86Cpuinfo(INTEL_METAL_CPU),
    kernelRelease: '5.14.0-570.12.1.el9_6.x86_64',
    osRelease: OS_RELEASE.rhel96,
    modules: [...X86_KVM_MODULES('kvm_intel'), 'vfio_pci', 'vfio_pci_core', 'vfio_iommu_type1', 'vfio', 'snd_hda_intel'],
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'Y' },
    iommu: { groups: 48, units: ['dmar0'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 263_714_332, // 256 GiB
    dmi: { sysVendor: 'Supermicro', productName: 'SYS-740A-T', productVersion: '0123456789', biosVendor: 'American Megatrends International, LLC.' },
    pci: GPU_SHARED_GROUP,
  },
  'pci-500': {
    cpuinfo: x86Cpuinfo(INTEL_METAL_CPU),
    kernelRelease: '5.14.0-570.12.1.el9_6.x86_64',
    osRelease: OS_RELEASE.rhel96,
    modules: [...X86_KVM_MODULES('kvm_intel'), 'mlx5_core', 'vfio_pci', 'vfio_pci_core', 'vfio_iommu_type1', 'vfio'],
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'Y' },
    iommu: { groups: 500, units: ['dmar0', 'dmar1', 'dmar2', 'dmar3'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 1_056_514_332, // 1 TiB
    dmi: { sysVendor: 'Dell Inc.', productName: 'PowerEdge R760', productVersion: '', biosVendor: 'Dell Inc.' },
    pci: MANY_FUNCTIONS,
  },
  'sev-snp-metal': {
    // An EPYC Genoa host set up for confidential VMs: SEV, SEV-ES and SEV-SNP on in the firmware
    // and on kvm_amd, the ccp driver's /dev/sev, ASIDs split by the firmware (confidential.ts).
    cpuinfo: x86Cpuinfo(AMD_GENOA_SEV_SNP_CPU),
    kernelRelease: '6.14.0-29-generic',
    osRelease: OS_RELEASE.ubuntu2404,
    modules: [...X86_KVM_MODULES('kvm_amd'), 'ccp'],
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_amd', value: '1' },
    iommu: { groups: 64, units: ['ivhd0', 'ivhd1'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 791_359_020, // 768 GiB
    dmi: { sysVendor: 'Supermicro', productName: 'AS -2125HS-TNR', productVersion: '0123456789', biosVendor: 'American Megatrends International, LLC.' },
    confidential: { files: SEV_SNP_FILES, sevDevice: true },
  },
  'tdx-metal': {
    // A Sapphire Rapids host with TDX on in the firmware and kvm_intel.tdx=Y (KVM initialised the TDX module).
    cpuinfo: x86Cpuinfo(INTEL_TDX_CPU),
    kernelRelease: '6.17.0-8-generic',
    osRelease: OS_RELEASE.ubuntu2404,
    modules: X86_KVM_MODULES('kvm_intel'),
    builtin: COMMON_BUILTIN,
    nested: { module: 'kvm_intel', value: 'N' },
    iommu: { groups: 48, units: ['dmar0', 'dmar1'] },
    devices: { kvm: 'usable', tun: 'usable', 'vhost-net': 'usable' },
    tier: 'hardware',
    memTotalKiB: 527_521_844, // 512 GiB
    dmi: { sysVendor: 'Intel Corporation', productName: 'D50DNP', productVersion: '', biosVendor: 'Intel Corporation' },
    confidential: { files: TDX_FILES, sevDevice: false },
  },
};
