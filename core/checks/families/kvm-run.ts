import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { open, stat } from '../../fs-promised.ts';
import path from 'node:path';
import type { StepRecord } from '../../kvm/guest-steps.ts';
import { type GuestRun, runGuest } from '../../kvm/run-guest.ts';
import { DEVICE_SPECS } from '../host/device-numbers.ts';
import { type DeviceFacts, type DevicesFamilyFacts, devMajor, devMinor } from './devices.ts';
import type { CheckFamily, ProbeContext } from '../family.ts';
import { hostPath } from '../host/files.ts';
import type { CheckOutcomeOf } from '../outcome.ts';
import { startStopwatch } from '../../stopwatch.ts';

/**
 * kvm.run: a tiny guest through the KVM API (core/kvm/), bounded in time. It proves that KVM
 * creates a VM and a vCPU and runs guest code to an I/O exit and HLT; it is not a boot. It can
 * only make the verdict worse: a failure blocks `ready`, a success never changes the tier.
 */
const IDS = ['kvm.run'] as const;
type KvmRunCheckId = (typeof IDS)[number];

export type KvmRunFacts = { state: 'not-run'; reason: string } | (GuestRun & { state: 'ran'; devicePath: string });

export interface KvmRunFamilyFacts {
  kvmRun: KvmRunFacts;
}

const KVM = DEVICE_SPECS.kvm;

const isRealKvmNode = (info: Stats): boolean => info.isCharacterDevice() && devMajor(info.rdev) === KVM.major && devMinor(info.rdev) === KVM.minor;

/** Why the guest is not run here, or undefined when it should be. */
async function reasonNotToRun({ hostRoot, kvmRun }: ProbeContext): Promise<string | undefined> {
  if (kvmRun?.enabled === false) return 'turned off (--no-kvm-run)';
  if (kvmRun?.devicePath !== undefined) return undefined;
  if (process.arch !== 'x64') return `the tiny guest is x86 code and this node is ${process.arch}`;
  if (path.resolve(hostRoot) === '/') return undefined;
  // Under another host root, only the kernel's own 10:232 node: any other node must never be driven by KVM ioctls.
  const info = await stat(hostPath(hostRoot, KVM.path)).catch(() => undefined);
  if (!info || !isRealKvmNode(info)) return `under --host-root ${hostRoot}, dev/kvm is not the real ${KVM.major}:${KVM.minor} character device`;
  return undefined;
}

/**
 * The guest's first step, `open`, made here before any child starts: a device that does not open
 * (no /dev/kvm, no driver) ends the run at that step, as the child would have ended it, without
 * the cost of a second Node.js process. Undefined when it opens.
 */
async function openFails(devicePath: string): Promise<GuestRun | undefined> {
  const elapsed = startStopwatch();
  try {
    // O_RDWR as the child opens it (libuv adds O_CLOEXEC to every open).
    await (await open(devicePath, constants.O_RDWR)).close();
    return undefined;
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? 'EIO';
    const durationMs = elapsed();
    return { outcome: 'failed', steps: [{ step: 'open', ok: false, errno }], failedStep: 'open', errno, durationMs };
  }
}

async function probeKvmRun(context: ProbeContext): Promise<KvmRunFamilyFacts> {
  const reason = await reasonNotToRun(context);
  if (reason !== undefined) return { kvmRun: { state: 'not-run', reason } };
  const { enabled: _enabled, devicePath: seamPath, ...seams } = context.kvmRun ?? { enabled: true };
  const devicePath = seamPath ?? hostPath(context.hostRoot, KVM.path);
  const run = (await openFails(devicePath)) ?? (await runGuest({ ...seams, devicePath }));
  return { kvmRun: { state: 'ran', devicePath, ...run } };
}

/** A remedy for the errno a KVM step failed with. */
const ERRNO_HINTS: Record<string, string> = {
  EBUSY: 'Another hypervisor (VirtualBox, VMware) holds VT-x/AMD-V on this node: stop it.',
  ENOMEM: 'KVM could not allocate for the VM (kubevirt/kubevirt#3708): check the memory cgroup limit of the pod and free memory on the node.',
  EACCES: 'Run virtgate privileged as root; check the /dev/kvm mode and the device cgroup.',
  EPERM: 'A seccomp profile or the device cgroup denies KVM ioctls: run virtgate privileged with seccomp Unconfined.',
  ENOTTY: 'The node at /dev/kvm does not answer KVM ioctls: it is not the KVM device. Recreate it (mknod /dev/kvm c 10 232) or load kvm_intel/kvm_amd.',
  ENODEV: 'The KVM driver is not loaded: load kvm_intel or kvm_amd.',
  ENOENT: 'There is no /dev/kvm at the path the guest opened: see dev.kvm.',
};

const opens = (device: DeviceFacts): boolean => device.state === 'present' && device.open === 'ok';

const stepsSummary = (steps: StepRecord[]): string[] => steps.map((step) => (step.ok ? step.step : `${step.step}: ${step.errno ?? step.detail ?? 'failed'}`));

export function evaluateKvmRun(facts: KvmRunFamilyFacts & Pick<DevicesFamilyFacts, 'kvm' | 'kvmProvider'>): CheckOutcomeOf<KvmRunCheckId> {
  const id: KvmRunCheckId = 'kvm.run';
  const run = facts.kvmRun;
  if (run.state === 'not-run') return { id, status: 'skip', message: `tiny KVM guest not run: ${run.reason}` };
  const observed = { outcome: run.outcome, devicePath: run.devicePath, durationMs: run.durationMs, steps: stepsSummary(run.steps) };
  switch (run.outcome) {
    case 'halted': {
      const pvm = facts.kvmProvider.state === 'ok' && facts.kvmProvider.value.module === 'kvm_pvm';
      const caveat = pvm ? '; KVM is kvm_pvm here, so ordinary guest kernels may still not boot' : '';
      return {
        id,
        status: 'pass',
        message: `a tiny guest ran through the KVM API: it wrote 0x${run.ioByte.toString(16)} to port 0x${run.ioPort.toString(16)} and halted (${run.durationMs} ms)${caveat}`,
        observed,
      };
    }
    case 'error':
      return { id, status: 'error', message: `could not run the tiny KVM guest: ${run.reason}`, observed };
    case 'timeout':
      return {
        ...(opens(facts.kvm) ? {} : { followsFrom: 'dev.kvm' }),
        id,
        status: 'fail',
        message: `the tiny KVM guest did not finish within ${run.boundMs} ms (${run.failedStep} had not returned); it was killed`,
        hint: 'KVM accepted the VM but does not run it to completion: check dmesg for kvm errors, and the KVM provider.',
        observed: { ...observed, failedStep: run.failedStep, boundMs: run.boundMs },
      };
    case 'failed': {
      const why = run.errno ?? run.detail ?? 'failed';
      const hint = (run.errno ? ERRNO_HINTS[run.errno] : undefined) ?? 'Check dmesg for kvm errors and the KVM provider (dev.kvm); report the step and errno if they look normal.';
      const result = {
        id,
        message: `the tiny KVM guest failed at ${run.failedStep}: ${why}`,
        hint,
        observed: { ...observed, failedStep: run.failedStep, ...(run.errno ? { errno: run.errno } : {}) },
      };
      // The guest ran and failed: never a skip. When /dev/kvm is not a KVM device that opens for
      // dev.kvm either (absent, driverless, a regular file), the failure follows from dev.kvm,
      // already counted in the tier, whose remedy applies.
      if (!opens(facts.kvm)) {
        const { hint: _ownHint, ...consequence } = result;
        return { ...consequence, status: 'fail', followsFrom: 'dev.kvm' };
      }
      return { ...result, status: 'fail' };
    }
  }
}

export const kvmRunFamily = {
  ids: IDS,
  probe: probeKvmRun,
  evaluate: (facts: KvmRunFamilyFacts & DevicesFamilyFacts) => [evaluateKvmRun(facts)],
  example: { kvmRun: { state: 'not-run', reason: 'turned off (--no-kvm-run)' } } satisfies KvmRunFamilyFacts,
} satisfies CheckFamily;
