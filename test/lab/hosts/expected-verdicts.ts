/**
 * The verdict a person expects for each fixture host, written by hand from what the host is, not
 * computed by virtgate: the truth the fault suite and the probe tests compare published state
 * with. Policy: the defaults (emulation not allowed), virt-host-validate left out.
 *
 * `withoutKvm` is the same host after `removeDevice(root, 'kvm')`, the one mutation the fault
 * suite makes to a host while agents run.
 */
import type { ConfidentialKind } from '../../../core/checks/host/confidential-kinds.ts';
import type { CheckStatus } from '../../../core/checks/outcome.ts';
import type { Tier } from '../../../core/checks/verdict.ts';
import type { HostProfile } from './build-host.ts';

export interface ExpectedVerdict {
  tier: Tier;
  ready: boolean;
  /** The statuses of the checks that decide or explain the verdict; checks not named are not judged. */
  checks: Partial<Record<'cpu.virtualization' | 'dev.kvm' | 'dev.tun' | 'dev.vhost-net' | 'kvm.nested' | 'os.userland' | 'platform' | 'confidential', CheckStatus>>;
}

export interface ExpectedHost {
  intact: ExpectedVerdict;
  withoutKvm?: ExpectedVerdict;
  /** Confidential guests on the intact host; absent: none can start there. */
  confidential?: { available: ConfidentialKind[]; asidsFree?: Partial<Record<ConfidentialKind, number>> };
}

// A bare-metal host with VT-x/AMD-V, KVM, tun and vhost-net on an Enterprise Linux userland.
const EL_METAL: ExpectedVerdict = {
  tier: 'hardware',
  ready: true,
  checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'dev.vhost-net': 'pass', 'kvm.nested': 'pass', 'os.userland': 'pass' },
};
// The same host once /dev/kvm is gone: VMs could only be emulated, which the default policy refuses.
const METAL_WITHOUT_KVM: ExpectedVerdict = { tier: 'emulation', ready: false, checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'fail', 'dev.tun': 'pass' } };

export const EXPECTED_VERDICTS: Record<HostProfile, ExpectedHost> = {
  'intel-metal': { intact: EL_METAL, withoutKvm: METAL_WITHOUT_KVM },
  'amd-metal': { intact: EL_METAL, withoutKvm: METAL_WITHOUT_KVM },
  rhel9: { intact: EL_METAL, withoutKvm: METAL_WITHOUT_KVM },
  // A KVM guest with VT-x passed through, on Ubuntu: usable, but nested (test only) and not EL.
  'nested-vm': {
    intact: { tier: 'hardware', ready: true, checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'kvm.nested': 'warn', 'os.userland': 'warn' } },
  },
  // A cloud VM without VT-x on Debian: tun works, so only emulation.
  'no-vmx': {
    intact: { tier: 'emulation', ready: false, checks: { 'cpu.virtualization': 'fail', 'dev.kvm': 'fail', 'dev.tun': 'pass', 'dev.vhost-net': 'warn', 'kvm.nested': 'warn', 'os.userland': 'warn' } },
  },
  // Not even tun: no VM can get a network.
  'no-tun': { intact: { tier: 'none', ready: false, checks: { 'cpu.virtualization': 'fail', 'dev.kvm': 'fail', 'dev.tun': 'fail' } } },
  // VT-x in the CPU, but /dev/kvm's driver is not loaded (open gives ENODEV).
  'kvm-enodev': { intact: { tier: 'emulation', ready: false, checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'fail', 'dev.tun': 'pass', 'dev.vhost-net': 'warn', 'os.userland': 'pass' } } },
  // A regular file where /dev/kvm should be.
  'kvm-regular-file': { intact: { tier: 'emulation', ready: false, checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'fail', 'dev.tun': 'pass', 'dev.vhost-net': 'pass' } } },
  // An EKS metal node on Amazon Linux 2023: KVM works; AL2023 is not Enterprise Linux (a warning).
  al2023: {
    intact: { tier: 'hardware', ready: true, checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'dev.vhost-net': 'pass', 'kvm.nested': 'pass', 'os.userland': 'warn' } },
    withoutKvm: METAL_WITHOUT_KVM,
  },
  // An EKS node on m5.large: a Nitro VM without VT-x or /dev/kvm; the platform check names the
  // cloud VM type and warns (use m5.metal).
  'ec2-vm': {
    intact: {
      tier: 'emulation',
      ready: false,
      checks: { 'cpu.virtualization': 'fail', 'dev.kvm': 'fail', 'dev.tun': 'pass', 'kvm.nested': 'warn', 'os.userland': 'warn', platform: 'warn' },
    },
  },
  // The same family on m5.metal: bare metal, KVM works.
  'ec2-metal': {
    intact: {
      tier: 'hardware',
      ready: true,
      checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'dev.vhost-net': 'pass', 'kvm.nested': 'pass', 'os.userland': 'warn', platform: 'pass' },
    },
  },
  // A Graviton c7g.large VM: arm64 shows no flag either way, but DMI says it is a cloud VM; no /dev/kvm.
  'arm64-vm': {
    intact: {
      tier: 'emulation',
      ready: false,
      checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'fail', 'dev.tun': 'pass', 'kvm.nested': 'warn', 'os.userland': 'warn', platform: 'warn' },
    },
  },
  // A VM whose kernel serves /dev/kvm through kvm_pvm (paravirtual KVM): /dev/kvm opens, yet with
  // no VT-x/AMD-V ordinary guests do not boot, so never hardware; dev.kvm warns and says why.
  'kvm-pvm': {
    intact: {
      tier: 'emulation',
      ready: false,
      checks: { 'cpu.virtualization': 'fail', 'dev.kvm': 'warn', 'dev.tun': 'pass', 'dev.vhost-net': 'warn', 'kvm.nested': 'warn', 'os.userland': 'warn', platform: 'pass' },
    },
  },
  // Passthrough hosts: Enterprise Linux bare metal whatever their PCI devices are; a GPU that is
  // not usable for passthrough never costs readiness for ordinary VMs.
  'gpu-vfio': { intact: EL_METAL, withoutKvm: METAL_WITHOUT_KVM },
  'gpu-shared-group': { intact: EL_METAL },
  'pci-500': { intact: EL_METAL },
  // Graviton metal on Ubuntu: arm64 needs no CPU flag for KVM.
  'arm64-metal': {
    intact: { tier: 'hardware', ready: true, checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'dev.vhost-net': 'pass', 'kvm.nested': 'pass', 'os.userland': 'warn' } },
  },
  // EPYC Genoa with SEV, SEV-ES and SEV-SNP on in the firmware and on kvm_amd, /dev/sev opening:
  // all three AMD kinds, strongest first. ASIDs from the misc cgroup: SEV 410 - 3 in use = 407;
  // SEV-ES 99 - 1 = 98, which SEV-SNP guests share. Ubuntu on 6.14: not EL, and USO (kernel.version warns).
  'sev-snp-metal': {
    intact: { tier: 'hardware', ready: true, checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'os.userland': 'warn', confidential: 'pass' } },
    confidential: { available: ['sev-snp', 'sev-es', 'sev'], asidsFree: { sev: 407, 'sev-es': 98, 'sev-snp': 98 } },
    withoutKvm: METAL_WITHOUT_KVM,
  },
  // Sapphire Rapids with tdx_host_platform and kvm_intel.tdx=Y: KVM brought the TDX module up.
  'tdx-metal': {
    intact: { tier: 'hardware', ready: true, checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'os.userland': 'warn', confidential: 'pass' } },
    confidential: { available: ['tdx'] },
  },
};

/** The expected verdict of a profile in the given state; throws where none was written down. */
export function expectedVerdict(profile: HostProfile, state: 'intact' | 'withoutKvm' = 'intact'): ExpectedVerdict {
  const expected = EXPECTED_VERDICTS[profile][state];
  if (!expected) throw new Error(`no hand-written verdict for ${profile} ${state}: add it to test/lab/hosts/expected-verdicts.ts`);
  return expected;
}
