import type { HostFacts } from '../host/facts.ts';
import type { VhvFacts } from '../vhv/types.ts';
import { evaluateCpuVirtualization, evaluateNested } from './checks/cpu.ts';
import { DEVICE_RULES, evaluateDevice } from './checks/devices.ts';
import { evaluateKernelVersion, evaluateUserland } from './checks/kernel.ts';
import { evaluateCgroup, evaluateIommu, evaluateModules } from './checks/platform.ts';
import { evaluateVirtHostValidate } from './checks/vhv.ts';
import type { CheckId, CheckResult, Policy, Tier, Verdict } from './types.ts';

/** The checks that decide the tier; every other `fail` only blocks `ready`. */
export const TIER_CHECKS: readonly CheckId[] = ['cpu.virtualization', 'dev.kvm', 'dev.tun'];

/** Facts + policy → verdict. Pure: no clock, no I/O. */
export function evaluate(host: HostFacts, vhv: VhvFacts, policy: Policy): Verdict {
  const checks: CheckResult[] = [
    evaluateCpuVirtualization(host.cpu),
    evaluateDevice(host.kvm, DEVICE_RULES.kvm),
    evaluateDevice(host.tun, DEVICE_RULES.tun),
    evaluateDevice(host.vhostNet, DEVICE_RULES.vhostNet),
    evaluateModules(host.modules, host.cpu, host),
    evaluateNested(host.cpu, host.nested),
    evaluateKernelVersion(host.kernelRelease, policy.minKernel),
    evaluateUserland(host.os),
    evaluateCgroup(host.cgroup),
    evaluateIommu(host.iommu),
    evaluateVirtHostValidate(vhv, policy.allowEmulation),
  ];
  return decide(checks, policy);
}

/** Derives tier and ready from check results. */
export function decide(checks: CheckResult[], policy: Policy): Verdict {
  const status = (id: CheckId) => checks.find((check) => check.id === id)?.status;
  const passes = (id: CheckId) => status(id) === 'pass';
  const tier: Tier =
    passes('cpu.virtualization') && passes('dev.kvm') && passes('dev.tun')
      ? 'hardware'
      : passes('dev.tun')
        ? 'emulation'
        : 'none';
  const conclusive = TIER_CHECKS.every((id) => status(id) !== 'error');
  const tierQualifies = tier === 'hardware' || (tier === 'emulation' && policy.allowEmulation);
  const blockingFailure = checks.some((check) => check.status === 'fail' && !TIER_CHECKS.includes(check.id));
  return { tier, ready: tierQualifies && !blockingFailure, conclusive, checks };
}
