/**
 * Fixture host roots: realistic trees that virtgate probes through `--host-root`.
 *
 *   const host = await buildHost(await mkdtemp(...), 'intel-metal');
 *   probeHost(host.root, host.devices);                      // library
 *   node cli/main.ts check --json --no-vhv ...host.cliArgs   // CLI
 *
 * Each profile writes proc/cpuinfo, proc/sys/kernel/osrelease, proc/modules, etc/os-release,
 * sys/class/dmi/id, sys/module, sys/fs/cgroup, sys/kernel/iommu_groups and sys/class/iommu, and makes the device
 * nodes with mknod. Every node is opened after it is made, and the build throws unless it behaves
 * as the profile says: a host root that is not what it claims would make every test built on it lie.
 *
 * The one fake: a test machine may or may not have a kvm or vhost-net driver, so a real 10:232 or
 * 10:238 node behaves differently from host to host. Where a profile needs KVM usable, dev/kvm is
 * `c 1 3` (/dev/null's driver) and dev/vhost-net is `c 1 5` (/dev/zero's); where it needs the KVM
 * driver absent, dev/kvm is a misc node (major 10) with a minor that /proc/misc shows no driver
 * serves, so open() gives ENODEV on every host. Either way `deviceNumbers` must be passed as
 * `--device-numbers`, and every check result made that way says "overridden". dev/net/tun is the
 * real 10:200 node.
 *
 * Requires root with CAP_MKNOD on a filesystem mounted without `nodev`.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEVICE_SPECS, type DeviceName, type DeviceSpec, parseDeviceOverrides } from '../../../core/checks/host/device-numbers.ts';
import type { Tier } from '../../../core/checks/verdict.ts';
import { MISC_MAJOR, unservedMiscMinor } from './misc-devices.ts';

const run = promisify(execFile);

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
] as const;
export type HostProfile = (typeof HOST_PROFILES)[number];

export interface BuildHostOptions {
  /**
   * Host-relative paths (`proc/cpuinfo`) to overwrite with the given text, or to delete with
   * `null`, after the profile is written. Parent directories are created.
   */
  files?: Record<string, string | null>;
  /** `v2` (a single `cgroup.controllers`, the default) or a `v1` hybrid tree of controller mounts. */
  cgroup?: 'v1' | 'v2';
}

export interface BuiltHost {
  root: string;
  profile: HostProfile;
  /** `--device-numbers` value when the host has stand-in device nodes, else undefined. */
  deviceNumbers: string | undefined;
  /** The device specs to give `probeHost` (the kernel's, or the stand-ins'). */
  devices: Record<DeviceName, DeviceSpec>;
  /** `--host-root ROOT` plus `--device-numbers` when needed: append to a `virtgate check` command line. */
  cliArgs: string[];
  /** The tier virtgate must decide for the host as built (before any mutator). */
  expectedTier: Tier;
}

/**
 * How a device node is made:
 * - usable: it opens read-write (a stand-in for kvm and vhost-net, the real node for tun);
 * - enodev: a misc node whose minor no driver on this kernel serves, so open() fails with ENODEV;
 * - regular-file: an ordinary file where the device should be.
 */
type DevicePlan = 'usable' | 'enodev' | 'regular-file';

interface NodeSpec {
  major: number;
  minor: number;
  /** The open() result the build insists on: 'ok' or an errno code. */
  opens: 'ok' | 'ENODEV';
}

const USABLE: Record<DeviceName, NodeSpec> = {
  kvm: { major: 1, minor: 3, opens: 'ok' },
  'vhost-net': { major: 1, minor: 5, opens: 'ok' },
  tun: { major: 10, minor: 200, opens: 'ok' },
};

function nodeSpec(name: DeviceName, plan: Exclude<DevicePlan, 'regular-file'>): NodeSpec {
  if (plan === 'usable') return USABLE[name];
  return { major: MISC_MAJOR, minor: unservedMiscMinor(), opens: 'ENODEV' };
}

/**
 * The `--device-numbers` value for a profile, or undefined when it has no stand-in node. Once a
 * profile has one, both kvm and vhost-net are overridden, so every result about them says so.
 */
function standInOverrides(devices: Partial<Record<DeviceName, DevicePlan>>): string | undefined {
  const standIn = (Object.entries(devices) as Array<[DeviceName, DevicePlan]>).some(([name, plan]) => (plan === 'usable' && name !== 'tun') || plan === 'enodev');
  if (!standIn) return undefined;
  const kvm = devices.kvm === 'enodev' ? nodeSpec('kvm', 'enodev') : USABLE.kvm;
  return `kvm=${kvm.major}:${kvm.minor},vhost-net=${USABLE['vhost-net'].major}:${USABLE['vhost-net'].minor}`;
}

interface HostSpec {
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
  /** sys/class/dmi/id: what the firmware says the machine is. */
  dmi: { sysVendor: string; productName: string; productVersion: string; biosVendor: string };
}

// ---------------------------------------------------------------- cpuinfo

const INTEL_FLAGS_BASE =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl';
const INTEL_FLAGS_TAIL =
  'smx est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb cat_l3 cat_l2 cdp_l3 intel_ppin cdp_l2 ssbd mba ibrs ibpb stibp ibrs_enhanced tpr_shadow flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb intel_pt avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local split_lock_detect avx_vnni avx512_bf16 wbnoinvd dtherm ida arat pln pts hwp hwp_act_window hwp_epp hwp_pkg_req vnmi avx512vbmi umip pku ospke waitpkg avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg tme avx512_vpopcntdq la57 rdpid bus_lock_detect cldemote movdiri movdir64b enqcmd fsrm md_clear serialize tsxldtrk pconfig arch_lbr ibt amx_bf16 avx512_fp16 amx_tile amx_int8 flush_l1d arch_capabilities';
// What a KVM guest on a Xeon sees: no dts/acpi/monitor, and `hypervisor`.
const INTEL_GUEST_FLAGS_BASE =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall nx pdpe1gb rdtscp lm constant_tsc arch_perfmon rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pdcm pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch cpuid_fault invpcid_single ssbd ibrs ibpb stibp ibrs_enhanced';
const INTEL_GUEST_FLAGS_TAIL =
  'fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves wbnoinvd arat avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid fsrm md_clear arch_capabilities';
const AMD_FLAGS =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl nonstop_tsc cpuid extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw ibs skinit wdt tce topoext perfctr_core perfctr_nb bpext perfctr_llc mwaitx cpb cat_l3 cdp_l3 hw_pstate ssbd mba perfmon_v2 ibrs ibpb stibp ibrs_enhanced vmmcall fsgsbase bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local avx512_bf16 clzero irperf xsaveerptr rdpru wbnoinvd amd_ppin cppc arat npt lbrv svm_lock nrip_save tsc_scale vmcb_clean flushbyasid decodeassists pausefilter pfthreshold avic v_vmsave_vmload vgif x2avic v_spec_ctrl vnmi avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq la57 rdpid overflow_recov succor smca fsrm flush_l1d';

interface X86Cpu {
  vendorId: 'GenuineIntel' | 'AuthenticAMD';
  family: number;
  model: number;
  modelName: string;
  stepping: number;
  mhz: string;
  flags: string;
  vmxFlags?: string;
  bugs: string;
  cores: number;
}

function x86Cpuinfo(cpu: X86Cpu): string {
  const blocks: string[] = [];
  for (let n = 0; n < cpu.cores; n += 1) {
    const lines = [
      `processor\t: ${n}`,
      `vendor_id\t: ${cpu.vendorId}`,
      `cpu family\t: ${cpu.family}`,
      `model\t\t: ${cpu.model}`,
      `model name\t: ${cpu.modelName}`,
      `stepping\t: ${cpu.stepping}`,
      `microcode\t: 0x2b000603`,
      `cpu MHz\t\t: ${cpu.mhz}`,
      `cache size\t: 107520 KB`,
      `physical id\t: 0`,
      `siblings\t: ${cpu.cores}`,
      `core id\t\t: ${n}`,
      `cpu cores\t: ${cpu.cores}`,
      `apicid\t\t: ${n * 2}`,
      `initial apicid\t: ${n * 2}`,
      `fpu\t\t: yes`,
      `fpu_exception\t: yes`,
      `cpuid level\t: 31`,
      `wp\t\t: yes`,
      `flags\t\t: ${cpu.flags}`,
      ...(cpu.vmxFlags ? [`vmx flags\t: ${cpu.vmxFlags}`] : []),
      `bugs\t\t: ${cpu.bugs}`,
      `bogomips\t: 4200.00`,
      `clflush size\t: 64`,
      `cache_alignment\t: 64`,
      `address sizes\t: 46 bits physical, 57 bits virtual`,
      `power management:`,
    ];
    blocks.push(`${lines.join('\n')}\n`);
  }
  return `${blocks.join('\n')}\n`;
}

const INTEL_VMX_FLAGS =
  'vnmi preemption_timer posted_intr invvpid ept_x_only ept_ad ept_1gb flexpriority apicv tsc_offset vtpr mtf vapic ept vpid unrestricted_guest vapic_reg vid ple shadow_vmcs pml ept_mode_based_exec tsc_scaling usr_wait_pause notify_vm_exiting ipi_virt';

const SAPPHIRE_RAPIDS = (flags: string, extra: Partial<X86Cpu> = {}): X86Cpu => ({
  vendorId: 'GenuineIntel',
  family: 6,
  model: 143,
  modelName: 'Intel(R) Xeon(R) Platinum 8488C',
  stepping: 8,
  mhz: '2400.000',
  flags,
  bugs: 'spectre_v1 spectre_v2 spec_store_bypass swapgs eibrs_pbrsb bhi',
  cores: 4,
  ...extra,
});

/** m5 instances: Cascade Lake Xeons. */
const CASCADE_LAKE = (flags: string, extra: Partial<X86Cpu> = {}): X86Cpu =>
  SAPPHIRE_RAPIDS(flags, { model: 85, modelName: 'Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz', stepping: 7, mhz: '2500.000', ...extra });

const INTEL_METAL_CPU = SAPPHIRE_RAPIDS(`${INTEL_FLAGS_BASE} vmx ${INTEL_FLAGS_TAIL}`, { vmxFlags: INTEL_VMX_FLAGS });
const INTEL_NESTED_CPU = SAPPHIRE_RAPIDS(`${INTEL_GUEST_FLAGS_BASE.replace('ss ht', 'ss ht vmx')} ${INTEL_GUEST_FLAGS_TAIL}`, {
  vmxFlags: 'vnmi preemption_timer invvpid ept_x_only ept_ad ept_1gb flexpriority tsc_offset vtpr mtf vapic ept vpid unrestricted_guest shadow_vmcs',
  cores: 2,
});
const INTEL_NO_VMX_CPU = SAPPHIRE_RAPIDS(`${INTEL_GUEST_FLAGS_BASE} ${INTEL_GUEST_FLAGS_TAIL}`, { cores: 2 });
const AMD_GENOA_CPU: X86Cpu = {
  vendorId: 'AuthenticAMD',
  family: 25,
  model: 17,
  modelName: 'AMD EPYC 9654 96-Core Processor',
  stepping: 1,
  mhz: '2400.000',
  flags: AMD_FLAGS,
  bugs: 'sysret_ss_attrs spectre_v1 spectre_v2 spec_store_bypass srso',
  cores: 4,
};

function arm64Cpuinfo(cores: number): string {
  const blocks: string[] = [];
  for (let n = 0; n < cores; n += 1) {
    blocks.push(
      [
        `processor\t: ${n}`,
        'BogoMIPS\t: 2100.00',
        'Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs paca pacg dcpodp svei8mm svebf16 i8mm bf16 dgh rng',
        'CPU implementer\t: 0x41',
        'CPU architecture: 8',
        'CPU variant\t: 0x1',
        'CPU part\t: 0xd40',
        'CPU revision\t: 1',
        '',
      ].join('\n'),
    );
  }
  return `${blocks.join('\n')}\n`;
}

// ---------------------------------------------------------------- os-release

const OS_RELEASE = {
  rhel92: `NAME="Red Hat Enterprise Linux"
VERSION="9.2 (Plow)"
ID="rhel"
ID_LIKE="fedora"
VERSION_ID="9.2"
PLATFORM_ID="platform:el9"
PRETTY_NAME="Red Hat Enterprise Linux 9.2 (Plow)"
ANSI_COLOR="0;31"
LOGO="fedora-logo-icon"
CPE_NAME="cpe:/o:redhat:enterprise_linux:9::baseos"
HOME_URL="https://www.redhat.com/"
DOCUMENTATION_URL="https://access.redhat.com/documentation/en-us/red_hat_enterprise_linux/9/"
BUG_REPORT_URL="https://bugzilla.redhat.com/"
`,
  rhel96: `NAME="Red Hat Enterprise Linux"
VERSION="9.6 (Plow)"
ID="rhel"
ID_LIKE="fedora"
VERSION_ID="9.6"
PLATFORM_ID="platform:el9"
PRETTY_NAME="Red Hat Enterprise Linux 9.6 (Plow)"
ANSI_COLOR="0;31"
LOGO="fedora-logo-icon"
CPE_NAME="cpe:/o:redhat:enterprise_linux:9::baseos"
HOME_URL="https://www.redhat.com/"
`,
  rocky95: `NAME="Rocky Linux"
VERSION="9.5 (Blue Onyx)"
ID="rocky"
ID_LIKE="rhel centos fedora"
VERSION_ID="9.5"
PLATFORM_ID="platform:el9"
PRETTY_NAME="Rocky Linux 9.5 (Blue Onyx)"
ANSI_COLOR="0;32"
LOGO="fedora-logo-icon"
CPE_NAME="cpe:/o:rocky:rocky:9::baseos"
HOME_URL="https://rockylinux.org/"
`,
  alma94: `NAME="AlmaLinux"
VERSION="9.4 (Seafoam Ocelot)"
ID="almalinux"
ID_LIKE="rhel centos fedora"
VERSION_ID="9.4"
PLATFORM_ID="platform:el9"
PRETTY_NAME="AlmaLinux 9.4 (Seafoam Ocelot)"
ANSI_COLOR="0;34"
LOGO="fedora-logo-icon"
CPE_NAME="cpe:/o:almalinux:almalinux:9::baseos"
HOME_URL="https://almalinux.org/"
`,
  centosStream9: `NAME="CentOS Stream"
VERSION="9"
ID="centos"
ID_LIKE="rhel fedora"
VERSION_ID="9"
PLATFORM_ID="platform:el9"
PRETTY_NAME="CentOS Stream 9"
ANSI_COLOR="0;31"
LOGO="fedora-logo-icon"
CPE_NAME="cpe:/o:centos:centos:9"
HOME_URL="https://centos.org/"
`,
  al2023: `NAME="Amazon Linux"
VERSION="2023"
ID="amzn"
ID_LIKE="fedora"
VERSION_ID="2023"
PLATFORM_ID="platform:al2023"
PRETTY_NAME="Amazon Linux 2023.6.20250107"
ANSI_COLOR="0;33"
CPE_NAME="cpe:2.3:o:amazon:amazon_linux:2023"
HOME_URL="https://aws.amazon.com/linux/amazon-linux-2023/"
DOCUMENTATION_URL="https://docs.aws.amazon.com/linux/"
SUPPORT_URL="https://aws.amazon.com/premiumsupport/"
BUG_REPORT_URL="https://github.com/amazonlinux/amazon-linux-2023"
VENDOR_NAME="AWS"
VENDOR_URL="https://aws.amazon.com/"
SUPPORT_END="2029-06-30"
`,
  ubuntu2204: `PRETTY_NAME="Ubuntu 22.04.5 LTS"
NAME="Ubuntu"
VERSION_ID="22.04"
VERSION="22.04.5 LTS (Jammy Jellyfish)"
VERSION_CODENAME=jammy
ID=ubuntu
ID_LIKE=debian
HOME_URL="https://www.ubuntu.com/"
SUPPORT_URL="https://help.ubuntu.com/"
BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"
PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"
UBUNTU_CODENAME=jammy
`,
  ubuntu2404: `PRETTY_NAME="Ubuntu 24.04.1 LTS"
NAME="Ubuntu"
VERSION_ID="24.04"
VERSION="24.04.1 LTS (Noble Numbat)"
VERSION_CODENAME=noble
ID=ubuntu
ID_LIKE=debian
HOME_URL="https://www.ubuntu.com/"
SUPPORT_URL="https://help.ubuntu.com/"
BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"
UBUNTU_CODENAME=noble
LOGO=ubuntu-logo
`,
  debian12: `PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
HOME_URL="https://www.debian.org/"
SUPPORT_URL="https://www.debian.org/support"
BUG_REPORT_URL="https://bugs.debian.org/"
`,
} as const;

// ---------------------------------------------------------------- profiles

const X86_KVM_MODULES = (vendor: 'kvm_intel' | 'kvm_amd') => [vendor, 'kvm', 'irqbypass', 'vhost_net', 'vhost', 'vhost_iotlb', 'tap', 'tun'];
const COMMON_BUILTIN = ['kernel', 'printk', 'pcie_aspm', 'sysrq', 'workqueue'];

const PROFILES: Record<HostProfile, HostSpec> = {
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
    dmi: { sysVendor: 'QEMU', productName: 'Standard PC (i440FX + PIIX, 1996)', productVersion: 'pc-i440fx-9.2', biosVendor: 'SeaBIOS' },
  },
};

const MODULE_SIZES: Record<string, number> = {
  kvm_intel: 413696,
  kvm_amd: 208896,
  kvm_pvm: 131072,
  kvm: 1363968,
  irqbypass: 12288,
  vhost_net: 36864,
  vhost: 65536,
  vhost_iotlb: 16384,
  tap: 28672,
  tun: 73728,
};
const MODULE_USERS: Record<string, string[]> = {
  kvm: ['kvm_intel', 'kvm_amd', 'kvm_pvm'],
  irqbypass: ['kvm'],
  vhost: ['vhost_net'],
  vhost_iotlb: ['vhost'],
  tap: ['vhost_net'],
  tun: ['vhost_net'],
};

/** proc/modules lines in the kernel's format: name size refcount users, state address. */
function procModules(modules: string[]): string {
  return modules
    .map((name) => {
      const users = (MODULE_USERS[name] ?? []).filter((user) => modules.includes(user));
      const usedBy = users.length > 0 ? `${users.join(',')},` : '-';
      return `${name} ${MODULE_SIZES[name] ?? 16384} ${users.length} ${usedBy} Live 0x0000000000000000\n`;
    })
    .join('');
}

// ---------------------------------------------------------------- building

const MANIFEST = '.virtgate-fixture.json';

interface Manifest {
  profile: HostProfile;
  devices: Partial<Record<DeviceName, DevicePlan>>;
}

/**
 * Writes the host root of `profile` at `dir` (created if missing; it must be empty) and returns
 * how to probe it. Throws with a clear message when a device node cannot be made or does not
 * behave as the profile needs, instead of producing a different host.
 */
export async function buildHost(dir: string, profile: HostProfile, options: BuildHostOptions = {}): Promise<BuiltHost> {
  const spec = PROFILES[profile];
  if (!spec) throw new Error(`buildHost: unknown profile "${String(profile)}"; one of ${HOST_PROFILES.join(', ')}`);
  const root = path.resolve(dir);
  await mkdir(root, { recursive: true });
  const existing = await readdir(root);
  if (existing.length > 0) throw new Error(`buildHost: ${root} is not empty (${existing.slice(0, 3).join(', ')}); give each host its own directory`);

  const nested: Record<string, string> = spec.nested ? { [`sys/module/${spec.nested.module}/parameters/nested`]: `${spec.nested.value}\n` } : {};
  await writeHostFiles(root, {
    'proc/cpuinfo': spec.cpuinfo,
    'proc/sys/kernel/osrelease': `${spec.kernelRelease}\n`,
    'proc/modules': procModules(spec.modules),
    'etc/os-release': spec.osRelease,
    // sysfs shows a loaded module with its refcnt; a built-in one only when it has parameters.
    ...Object.fromEntries(spec.modules.map((name) => [`sys/module/${name}/refcnt`, '0\n'])),
    ...nested,
    ...cgroupFiles(options.cgroup ?? 'v2'),
    ...dmiFiles(spec.dmi),
    ...Object.fromEntries(Array.from({ length: spec.iommu.groups }, (_, n) => [`sys/kernel/iommu_groups/${n}/type`, 'DMA-FQ\n'])),
  });
  const dirs = [
    ...spec.builtin.map((name) => `sys/module/${name}/parameters`),
    ...spec.iommu.units.map((unit) => `sys/class/iommu/${unit}`),
    'sys/kernel/iommu_groups',
    'dev/net',
  ];
  for (const dir of dirs) await mkdir(insideRoot(root, dir), { recursive: true });

  const manifest: Manifest = { profile, devices: spec.devices };
  await writeFile(path.join(root, MANIFEST), `${JSON.stringify(manifest)}\n`);
  for (const [name, plan] of Object.entries(spec.devices) as Array<[DeviceName, DevicePlan]>) {
    await makeDevice(root, name, plan);
  }
  if (options.files) await writeHostFiles(root, options.files);

  const deviceNumbers = standInOverrides(spec.devices);
  return {
    root,
    profile,
    deviceNumbers,
    devices: deviceNumbers ? parseDeviceOverrides(deviceNumbers) : { ...DEVICE_SPECS },
    cliArgs: ['--host-root', root, ...(deviceNumbers ? ['--device-numbers', deviceNumbers] : [])],
    expectedTier: spec.tier,
  };
}

/** sysfs shows each DMI string with a newline; an empty one is an empty line. */
function dmiFiles(dmi: HostSpec['dmi']): Record<string, string> {
  return {
    'sys/class/dmi/id/sys_vendor': `${dmi.sysVendor}\n`,
    'sys/class/dmi/id/product_name': `${dmi.productName}\n`,
    'sys/class/dmi/id/product_version': `${dmi.productVersion}\n`,
    'sys/class/dmi/id/bios_vendor': `${dmi.biosVendor}\n`,
  };
}

function cgroupFiles(version: 'v1' | 'v2'): Record<string, string> {
  if (version === 'v2') {
    return {
      'sys/fs/cgroup/cgroup.controllers': 'cpuset cpu io memory hugetlb pids rdma misc\n',
      'sys/fs/cgroup/cgroup.subtree_control': 'cpuset cpu io memory pids\n',
    };
  }
  // A systemd hybrid tree: one directory per v1 mount, combined mounts named as the kernel does.
  const mounts = ['blkio', 'cpu,cpuacct', 'cpuset', 'devices', 'freezer', 'hugetlb', 'memory', 'net_cls,net_prio', 'perf_event', 'pids', 'rdma', 'misc', 'systemd'];
  return {
    ...Object.fromEntries(mounts.map((mount) => [`sys/fs/cgroup/${mount}/cgroup.procs`, '1\n'])),
    'sys/fs/cgroup/unified/cgroup.controllers': '\n',
  };
}

/**
 * Writes (string) or deletes (null) host-relative files under `root`. An existing entry at the
 * path is removed first, so a file can replace a directory, a FIFO or a device node.
 */
export async function writeHostFiles(root: string, files: Record<string, string | null>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const full = insideRoot(root, relative);
    await rm(full, { recursive: true, force: true });
    if (content === null) continue;
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

/** Removes a device node (or whatever stands at its path). */
export async function removeDevice(root: string, name: DeviceName): Promise<void> {
  await rm(insideRoot(root, DEVICE_SPECS[name].path), { recursive: true, force: true });
}

/** Puts back the device node the profile built; throws if the profile had none at that path. */
export async function restoreDevice(root: string, name: DeviceName): Promise<void> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(root, MANIFEST), 'utf8')) as Manifest;
  } catch (error) {
    throw new Error(`restoreDevice: ${root} was not made by buildHost (${error instanceof Error ? error.message : String(error)})`);
  }
  const plan = manifest.devices[name];
  if (!plan) throw new Error(`restoreDevice: profile ${manifest.profile} has no ${name} device to restore`);
  await removeDevice(root, name);
  await makeDevice(root, name, plan);
}

function insideRoot(root: string, relative: string): string {
  const full = path.resolve(root, relative);
  if (full === path.resolve(root) || !full.startsWith(`${path.resolve(root)}${path.sep}`)) {
    throw new Error(`fixture host: path "${relative}" is not inside ${root}`);
  }
  return full;
}

async function makeDevice(root: string, name: DeviceName, plan: DevicePlan): Promise<void> {
  const full = insideRoot(root, DEVICE_SPECS[name].path);
  await mkdir(path.dirname(full), { recursive: true });
  if (plan === 'regular-file') {
    await writeFile(full, '');
    return;
  }
  const node = nodeSpec(name, plan);
  try {
    await run('mknod', ['-m', '0666', full, 'c', String(node.major), String(node.minor)]);
  } catch (error) {
    const stderr = error && typeof error === 'object' && 'stderr' in error ? String(error.stderr).trim() : '';
    throw new Error(
      `buildHost: cannot make ${name} device node (mknod ${full} c ${node.major} ${node.minor}): ` +
        `${stderr || (error instanceof Error ? error.message : String(error))}. ` +
        'Fixture hosts need root with CAP_MKNOD; the tests do not fake a host without real device nodes.',
    );
  }
  const opened = await openResult(full);
  if (opened !== node.opens) {
    const why =
      node.opens === 'ENODEV'
        ? `a driver for ${node.major}:${node.minor} appeared after /proc/misc was read`
        : opened === 'EACCES' || opened === 'EPERM'
          ? 'the filesystem is probably mounted nodev, or a device cgroup denies it; build hosts on a filesystem that allows device nodes'
          : `the ${name} driver (${node.major}:${node.minor}) does not work on this machine`;
    throw new Error(`buildHost: ${full} (c ${node.major} ${node.minor}) must open with ${node.opens} but gave ${opened}: ${why}`);
  }
}

async function openResult(file: string): Promise<string> {
  try {
    const handle = await open(file, constants.O_RDWR | constants.O_NONBLOCK);
    await handle.close();
    return 'ok';
  } catch (error) {
    return error && typeof error === 'object' && 'code' in error ? String(error.code) : 'EUNKNOWN';
  }
}
