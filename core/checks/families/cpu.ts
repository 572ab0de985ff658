import type { CheckFamily, ProbeContext } from '../family.ts';
import { describeRead, readHostFile } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import { CPU_VENDORS, type CpuFacts, parseCpuinfo } from '../host/parse/cpuinfo.ts';
import type { CheckOutcomeOf } from '../outcome.ts';
import { hardwareVirtualizationRemedy } from '../host/virtualization-remedy.ts';
import { classifyPlatform } from '../host/platform-class.ts';
import type { PlatformFamilyFacts } from './platform.ts';

/** Hardware virtualization in the CPU, from proc/cpuinfo. */
const IDS = ['cpu.virtualization'] as const;
type CpuCheckId = (typeof IDS)[number];

export interface CpuFamilyFacts {
  cpu: Observation<CpuFacts>;
}

async function probeCpu({ hostRoot }: ProbeContext): Promise<CpuFamilyFacts> {
  const read = await readHostFile(hostRoot, 'proc/cpuinfo');
  if (read.state !== 'ok') return { cpu: { state: 'unknown', reason: describeRead('proc/cpuinfo', read) } };
  return { cpu: parseCpuinfo(read.text) };
}

function evaluateCpuVirtualization(cpu: Observation<CpuFacts>, facts: PlatformFamilyFacts): CheckOutcomeOf<CpuCheckId> {
  const id = 'cpu.virtualization';
  if (cpu.state === 'unknown') return { id, status: 'error', message: cpu.reason };
  const { arch, vendor, model, vmx, svm } = cpu.value;
  const observed = { arch, vendor, model, vmx, svm };
  if (arch === 'arm64') {
    return { id, status: 'pass', message: 'arm64: KVM needs no CPU flag; /dev/kvm decides', observed };
  }
  if (vmx) return { id, status: 'pass', message: 'Intel VT-x (vmx) is available', observed };
  if (svm) return { id, status: 'pass', message: 'AMD-V (svm) is available', observed };
  // The remedy depends on what the machine is: a firmware switch on metal, nested virtualization on a VM.
  const platform = classifyPlatform(facts.platform, cpu);
  const why = platform.kind === 'virtual-machine' ? "this virtual machine's hypervisor does not pass VT-x/AMD-V through" : platform.kind === 'bare-metal' ? 'VT-x/AMD-V is absent or disabled in the firmware' : 'hardware virtualization is absent or disabled';
  return {
    id,
    status: 'fail',
    message: `the CPU shows neither vmx nor svm: ${why}`,
    hint: hardwareVirtualizationRemedy(platform),
    observed,
  };
}

export const cpuFamily = {
  ids: IDS,
  probe: probeCpu,
  evaluate: (facts: CpuFamilyFacts & PlatformFamilyFacts) => [evaluateCpuVirtualization(facts.cpu, facts)],
  labels: {
    declared: [
      { name: 'cpu-vendor', values: CPU_VENDORS.map((vendor) => `\`${vendor}\``).join(', '), meaning: "the CPU's vendor, from /proc/cpuinfo" },
      { name: 'nested', values: '`true`, `false`', meaning: 'the CPU reports a hypervisor: this node is itself a VM, so its VMs are nested (test only)' },
    ],
    values: (facts: CpuFamilyFacts) => ({
      'cpu-vendor': facts.cpu.state === 'ok' ? facts.cpu.value.vendor : undefined,
      nested: facts.cpu.state === 'ok' ? String(facts.cpu.value.hypervisor) : undefined,
    }),
  },
  report: {
    fields: ['cpuVendor', 'cpuFeatures'],
    build: (facts: CpuFamilyFacts) => (facts.cpu.state === 'ok' ? { cpuVendor: facts.cpu.value.vendor, cpuFeatures: facts.cpu.value.features } : {}),
  },
  example: { cpu: { state: 'ok', value: { arch: 'x86_64', vendor: 'intel', model: 'Xeon', processors: 8, vmx: true, svm: false, hypervisor: false, features: ['avx', 'sse2'] } } } satisfies CpuFamilyFacts,
} satisfies CheckFamily;
