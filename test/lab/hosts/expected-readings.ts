/**
 * How every check must read on every fixture host, written by hand from what each host is (its
 * profile in profiles/profiles.ts), not computed by virtgate: the status of each check, the check
 * a consequence follows from, readiness with and without --allow-emulation, and the remedies a
 * person would give on that platform. test/hosts/status-rule.test.ts holds virtgate to it.
 *
 * Each host is read as `virtgate check` would read it on that machine's own root:
 *  - `vhv`: the recorded virt-host-validate output that machine would print (test/fixtures), or
 *    `disabled` where no recording fits (no tun; arm64);
 *  - `kvmRun: 'run'`: where /dev/kvm is absent or not KVM, the tiny guest is run on the fixture's
 *    dev/kvm through the devicePath seam, as it runs on a real root (where it fails at open);
 *    hosts whose /dev/kvm is a stand-in (/dev/null's driver) keep it `not-run`, as the CLI does;
 *  - every host also gets a proc/meminfo without hugepages reserved.
 */
import type { CheckId } from '../../../core/checks/registry.ts';
import type { CheckStatus } from '../../../core/checks/outcome.ts';
import type { HostProfile } from './profiles/profiles.ts';
import type { VhvFixture } from './paths.ts';

/** A status, or a status and the check it follows from. */
export type ExpectedCheck = CheckStatus | { status: CheckStatus; followsFrom: CheckId };

export interface ExpectedReading {
  vhv: VhvFixture | 'disabled';
  kvmRun: 'run' | 'not-run';
  checks: Record<CheckId, ExpectedCheck>;
  /** Only virt-host-validate's status changes under --allow-emulation (KVM FAIL lines become warnings). */
  allowEmulationVhv?: ExpectedCheck;
  ready: { strict: boolean; allowEmulation: boolean };
  /** The module dev.kvm's message names (the KVM provider), where /dev/kvm opens. */
  provider?: string;
  /** Words cpu.virtualization's or dev.kvm's remedy must contain on this platform. */
  remedy?: { check: 'cpu.virtualization' | 'dev.kvm'; says: string[] };
}

const follows = (status: CheckStatus, followsFrom: CheckId): ExpectedCheck => ({ status, followsFrom });

/** A healthy host: everything passes, virt-host-validate warns about IOMMU and secure guests (the recording). */
const HEALTHY: Record<CheckId, ExpectedCheck> = {
  'cpu.virtualization': 'pass',
  'dev.kvm': 'pass',
  'dev.tun': 'pass',
  'dev.vhost-net': 'pass',
  'kvm.run': 'skip',
  'qemu.access': 'pass',
  'kernel.modules': 'pass',
  'kvm.nested': 'pass',
  platform: 'pass',
  'kernel.version': 'pass',
  'os.userland': 'pass',
  cgroup: 'pass',
  iommu: 'pass',
  'virt-host-validate': 'warn',
  hugepages: 'pass',
  // No PCI tree in the profile: nothing to look at.
  passthrough: 'skip',
  // Informational: no SEV or TDX on most hosts is a pass that says so (the SEV-SNP and TDX profiles pass with their kinds).
  confidential: 'pass',
};

/** A cloud VM without VT-x: no /dev/kvm because of the CPU, the guest fails at open because of that, the tool repeats it. */
const VM_WITHOUT_VTX: Record<CheckId, ExpectedCheck> = {
  ...HEALTHY,
  'cpu.virtualization': 'fail',
  'dev.kvm': follows('fail', 'cpu.virtualization'),
  'dev.vhost-net': 'warn',
  'kvm.run': follows('fail', 'dev.kvm'),
  'kernel.modules': 'warn',
  'kvm.nested': 'warn',
  platform: 'warn',
  'os.userland': 'warn',
  'virt-host-validate': follows('fail', 'cpu.virtualization'),
};

export const EXPECTED_READINGS: Record<HostProfile, ExpectedReading> = {
  'intel-metal': { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: HEALTHY, ready: { strict: true, allowEmulation: true }, provider: 'kvm_intel' },
  'amd-metal': { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: HEALTHY, ready: { strict: true, allowEmulation: true }, provider: 'kvm_amd' },
  rhel9: { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: HEALTHY, ready: { strict: true, allowEmulation: true }, provider: 'kvm_intel' },
  // A KVM guest with VT-x passed through, on Ubuntu 22.04 (kernel 5.15): VMs nest; not EL.
  'nested-vm': {
    vhv: 'libvirt-9.0-kvm-ok.txt',
    kvmRun: 'not-run',
    checks: { ...HEALTHY, 'kvm.nested': 'warn', 'os.userland': 'warn' },
    ready: { strict: true, allowEmulation: true },
    provider: 'kvm_intel',
  },
  // A GCE VM without VT-x on Debian 12: the remedy is GCE's nested-virtualization switch.
  'no-vmx': {
    vhv: 'libvirt-9.0-no-hw-virt.txt',
    kvmRun: 'run',
    checks: VM_WITHOUT_VTX,
    allowEmulationVhv: follows('warn', 'cpu.virtualization'),
    ready: { strict: false, allowEmulation: true },
    remedy: { check: 'cpu.virtualization', says: ['nested virtualization', '--enable-nested-virtualization'] },
  },
  // An OpenStack VM without VT-x and without tun: nothing runs; no recording fits (its tun line would fail).
  'no-tun': {
    vhv: 'disabled',
    kvmRun: 'run',
    checks: { ...VM_WITHOUT_VTX, 'dev.tun': 'fail', 'qemu.access': 'skip', 'virt-host-validate': 'skip' },
    ready: { strict: false, allowEmulation: false },
    remedy: { check: 'cpu.virtualization', says: ['enable nested virtualization on its hypervisor'] },
  },
  // VT-x present, kvm_intel not loaded, a 10:x node that gives ENODEV: dev.kvm is the cause (not the CPU);
  // virt-host-validate only access()es the node and passes it.
  'kvm-enodev': {
    vhv: 'libvirt-9.0-kvm-ok.txt',
    kvmRun: 'run',
    checks: { ...HEALTHY, 'dev.kvm': 'fail', 'dev.vhost-net': 'warn', 'kvm.run': follows('fail', 'dev.kvm'), 'kernel.modules': 'warn' },
    ready: { strict: false, allowEmulation: true },
    remedy: { check: 'dev.kvm', says: ['modprobe kvm_intel'] },
  },
  // A regular file at /dev/kvm: the guest opens it and its first ioctl fails, because it is not KVM.
  'kvm-regular-file': {
    vhv: 'libvirt-9.0-kvm-ok.txt',
    kvmRun: 'run',
    checks: { ...HEALTHY, 'dev.kvm': 'fail', 'kvm.run': follows('fail', 'dev.kvm') },
    ready: { strict: false, allowEmulation: true },
  },
  // An EKS metal node on Amazon Linux 2023 (kernel 6.1, below the USO issue): AL2023 is not EL.
  al2023: { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: { ...HEALTHY, 'os.userland': 'warn' }, ready: { strict: true, allowEmulation: true }, provider: 'kvm_intel' },
  'ec2-metal': { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: { ...HEALTHY, 'os.userland': 'warn' }, ready: { strict: true, allowEmulation: true }, provider: 'kvm_intel' },
  // Graviton metal on Ubuntu 24.04, kernel 6.8 (not EL: the USO warning); KVM built in.
  'arm64-metal': {
    vhv: 'disabled',
    kvmRun: 'not-run',
    checks: { ...HEALTHY, 'kernel.version': 'warn', 'os.userland': 'warn', 'virt-host-validate': 'skip', confidential: 'skip' },
    ready: { strict: true, allowEmulation: true },
    provider: 'the kvm core built into the kernel',
  },
  // An EKS node on m5.large: EC2's words (a nested-virtualization type, or m5.metal).
  'ec2-vm': {
    vhv: 'libvirt-9.0-no-hw-virt.txt',
    kvmRun: 'run',
    checks: VM_WITHOUT_VTX,
    allowEmulationVhv: follows('warn', 'cpu.virtualization'),
    ready: { strict: false, allowEmulation: true },
    remedy: { check: 'cpu.virtualization', says: ['C8i, M8i, R8i', 'm5.metal instead of m5.large'] },
  },
  // A Graviton c7g.large VM: arm64 needs no flag, so dev.kvm is its own failure; Graviton VMs get no virtualization.
  'arm64-vm': {
    vhv: 'disabled',
    kvmRun: 'not-run',
    checks: {
      ...HEALTHY,
      'dev.kvm': 'fail',
      'dev.vhost-net': 'warn',
      'kernel.modules': 'warn',
      'kvm.nested': 'warn',
      platform: 'warn',
      'kernel.version': 'warn',
      'os.userland': 'warn',
      'virt-host-validate': 'skip',
      // SEV and TDX are x86 features: nothing to look at on arm64.
      confidential: 'skip',
    },
    ready: { strict: false, allowEmulation: true },
    remedy: { check: 'dev.kvm', says: ['c7g.metal instead of c7g.large'] },
  },
  // A GPU on vfio-pci alone in its IOMMU group: ready for passthrough.
  'gpu-vfio': { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: { ...HEALTHY, passthrough: 'pass' }, ready: { strict: true, allowEmulation: true }, provider: 'kvm_intel' },
  // A GPU on vfio-pci whose group also holds its audio function on snd_hda_intel: the kernel
  // refuses the group (vfio_dev_viable), a warning with the remedy; ordinary VMs are unaffected.
  'gpu-shared-group': { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: { ...HEALTHY, passthrough: 'warn' }, ready: { strict: true, allowEmulation: true }, provider: 'kvm_intel' },
  // 500 PCI functions, 8 virtual functions on vfio-pci in their own groups.
  'pci-500': { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: { ...HEALTHY, passthrough: 'pass' }, ready: { strict: true, allowEmulation: true }, provider: 'kvm_intel' },
  // A QEMU/KVM guest whose kernel serves /dev/kvm through kvm_pvm: no VT-x (the cause of the tool's FAIL),
  // /dev/kvm opens (a warning, not a consequence), Debian 12 on a 6.18 kernel.
  'kvm-pvm': {
    vhv: 'libvirt-9.0-no-hw-virt.txt',
    kvmRun: 'not-run',
    checks: {
      ...HEALTHY,
      'cpu.virtualization': 'fail',
      'dev.kvm': 'warn',
      'dev.vhost-net': 'warn',
      'kernel.modules': 'warn',
      'kvm.nested': 'warn',
      'kernel.version': 'warn',
      'os.userland': 'warn',
      'virt-host-validate': follows('fail', 'cpu.virtualization'),
    },
    allowEmulationVhv: follows('warn', 'cpu.virtualization'),
    ready: { strict: false, allowEmulation: true },
    provider: 'kvm_pvm',
    remedy: { check: 'cpu.virtualization', says: ['kvm_intel nested=1', 'host-passthrough'] },
  },
  // SEV-SNP and TDX hosts: Ubuntu kernels new enough for the host support (6.14, 6.17): not EL, USO.
  // virt-host-validate's recording warns "Unknown if this platform has Secure Guest support";
  // confidential still passes and says it believes its own reading (confidential.test.ts).
  'sev-snp-metal': { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: { ...HEALTHY, 'kernel.version': 'warn', 'os.userland': 'warn' }, ready: { strict: true, allowEmulation: true }, provider: 'kvm_amd' },
  'tdx-metal': { vhv: 'libvirt-9.0-kvm-ok.txt', kvmRun: 'not-run', checks: { ...HEALTHY, 'kernel.version': 'warn', 'os.userland': 'warn' }, ready: { strict: true, allowEmulation: true }, provider: 'kvm_intel' },
};

/** Profiles that are virtual machines, by what they are (DMI written in the profile): a firmware remedy is wrong there. */
export const VM_PROFILES: readonly HostProfile[] = ['nested-vm', 'no-vmx', 'no-tun', 'ec2-vm', 'arm64-vm', 'kvm-pvm'];

/** One row of a host's passthrough inventory: how many functions of an id are in a state. */
export interface ExpectedDeviceRow {
  selector: string;
  state: 'vfio-ready' | 'no-vfio-node' | 'group-not-viable' | 'bound-to-host-driver' | 'unbound' | 'no-iommu';
  count: number;
  /** Words the row's blocker must contain. */
  blockedBy?: string[];
}

/**
 * The passthrough inventory of each PCI fixture host, by hand from profiles/pci.ts and the
 * kernel's viability rule (drivers/vfio/group.c vfio_dev_viable; Documentation/driver-api/vfio.rst):
 * a group is usable only when every member is driver-less, on a VFIO driver, on pci-stub, or a
 * bridge; KubeVirt takes a device only on vfio-pci. Bridges on pcieport and driver-less host
 * bridges are counted as what they are (bound to a host driver, unbound), not as blockers.
 */
export const EXPECTED_HOST_DEVICES: Partial<Record<HostProfile, { functions: number; rows: ExpectedDeviceRow[]; mediated: Array<{ name: string; available: number; created: number }> }>> = {
  'gpu-vfio': {
    functions: 6,
    // The T4's vGPU type, named as KubeVirt's mdevNameSelector matches it (spaces as underscores).
    mediated: [{ name: 'GRID_T4-1Q', available: 16, created: 0 }],
    rows: [
      { selector: '10DE:2236', state: 'vfio-ready', count: 1 },
      { selector: '10DE:1EB8', state: 'bound-to-host-driver', count: 1 },
      { selector: '8086:1572', state: 'bound-to-host-driver', count: 2 },
      { selector: '8086:347A', state: 'bound-to-host-driver', count: 1 },
      { selector: '8086:09A2', state: 'unbound', count: 1 },
    ],
  },
  'gpu-shared-group': {
    functions: 5,
    mediated: [],
    rows: [
      { selector: '10DE:2204', state: 'group-not-viable', count: 1, blockedBy: ['0000:01:00.1', 'snd_hda_intel', '14'] },
      { selector: '10DE:1AEF', state: 'bound-to-host-driver', count: 1 },
      { selector: '144D:A80A', state: 'bound-to-host-driver', count: 1 },
      { selector: '8086:347A', state: 'bound-to-host-driver', count: 1 },
      { selector: '8086:09A2', state: 'unbound', count: 1 },
    ],
  },
  'pci-500': {
    functions: 500,
    mediated: [],
    rows: [
      { selector: '15B3:101E', state: 'vfio-ready', count: 8 },
      { selector: '15B3:101E', state: 'bound-to-host-driver', count: 472 },
      { selector: '15B3:101D', state: 'bound-to-host-driver', count: 4 },
      { selector: '8086:347A', state: 'bound-to-host-driver', count: 15 },
      { selector: '8086:09A2', state: 'unbound', count: 1 },
    ],
  },
};
