import type { CheckOutcome, Verdict } from '../../core/checks/verdict.ts';
import type { EffectiveVerdict } from './verdict-hold.ts';

export interface DesiredCondition {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

const MAX_MESSAGE = 300;

function summary(checks: CheckOutcome[], status: CheckOutcome['status']): string {
  return checks
    .filter((check) => check.status === status)
    .map((check) => `${check.id}: ${check.message}`)
    .join('; ');
}

/** The `VirtualizationReady` condition: status, a CamelCase reason and one line that says why. */
export function desiredCondition(verdict: Verdict, effective: EffectiveVerdict): DesiredCondition {
  const clip = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text);
  const errors = summary(verdict.checks, 'error');
  if (effective.undecided) {
    return { status: 'Unknown', reason: 'ProbeInconclusive', message: clip(`cannot tell yet: ${errors}`) };
  }
  if (effective.held) {
    return {
      status: effective.ready ? 'True' : 'False',
      reason: 'VerdictHeld',
      message: clip(`keeping the last verdict (tier ${effective.tier}) because a probe could not tell: ${errors}`),
    };
  }
  const failures = summary(verdict.checks, 'fail');
  const status = effective.ready ? 'True' : 'False';
  switch (effective.tier) {
    case 'hardware':
      return effective.ready
        ? { status, reason: 'HardwareVirtualization', message: 'KVM is usable: VMs run with hardware acceleration' }
        : { status, reason: 'HostCheckFailed', message: clip(failures) };
    case 'emulation':
      return effective.ready
        ? { status, reason: 'EmulationAllowed', message: 'no usable KVM; VMs run only with KubeVirt useEmulation (slow, test only)' }
        : { status, reason: 'NoHardwareVirtualization', message: clip(failures) };
    case 'none':
      return { status, reason: 'NoTunDevice', message: clip(failures) };
  }
}
