import type { CpuFacts, Observation } from '../../host/facts.ts';
import type { CheckResult } from '../types.ts';

export function evaluateCpuVirtualization(cpu: Observation<CpuFacts>): CheckResult {
  const id = 'cpu.virtualization';
  if (cpu.state === 'unknown') return { id, status: 'error', message: cpu.reason };
  const { arch, vendor, model, vmx, svm } = cpu.value;
  const observed = { arch, vendor, model, vmx, svm };
  if (arch === 'arm64') {
    return { id, status: 'pass', message: 'arm64: KVM needs no CPU flag; /dev/kvm decides', observed };
  }
  if (vmx) return { id, status: 'pass', message: 'Intel VT-x (vmx) is available', observed };
  if (svm) return { id, status: 'pass', message: 'AMD-V (svm) is available', observed };
  return {
    id,
    status: 'fail',
    message: 'the CPU shows neither vmx nor svm: hardware virtualization is absent or disabled',
    hint: 'Enable VT-x/AMD-V in the firmware, or use a bare-metal instance (on EKS: *.metal). Without it only KubeVirt useEmulation works.',
    observed,
  };
}

export function evaluateNested(cpu: Observation<CpuFacts>, nested: { kvmIntel: string | null; kvmAmd: string | null }): CheckResult {
  const id = 'kvm.nested';
  if (cpu.state === 'unknown') return { id, status: 'error', message: cpu.reason };
  const parameter = nested.kvmIntel ?? nested.kvmAmd;
  const nestedOn = parameter !== null && /^(Y|y|1)$/.test(parameter);
  const observed = { hypervisor: cpu.value.hypervisor, nestedParameter: parameter };
  if (cpu.value.hypervisor) {
    return {
      id,
      status: 'warn',
      message: 'this host is itself a virtual machine: VMs here are nested, fit for tests only',
      hint: 'Use bare-metal nodes for production VMs.',
      observed,
    };
  }
  if (nestedOn) return { id, status: 'pass', message: 'bare metal; nested virtualization is enabled for guests', observed };
  return { id, status: 'pass', message: 'bare metal', observed };
}
