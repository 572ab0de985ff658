/** status.vmBoot as `virtgate canary` writes it (core/report/schema.ts), for the aggregator's canary tests. Test-only. */
import type { VmBoot, VmBootReason } from '../../../core/report/schema.ts';

export interface VmBootOptions {
  nodeClass: string;
  /** When the run created the VMI (ISO 8601). */
  runAt: string;
  reason?: VmBootReason;
  classFailedRuns?: number;
  lastSuccessAt?: string;
  message?: string;
  seconds?: VmBoot['seconds'];
}

/** A Booted result by default: scheduled, launcher running, VMI running and the guest's marker at 2, 9, 14 and 21 s; a failure got as far as scheduled (not even that when NotScheduled). */
export function vmBoot(options: VmBootOptions): VmBoot {
  const reason = options.reason ?? 'Booted';
  const booted = reason === 'Booted';
  return {
    status: booted ? 'True' : 'False',
    reason,
    message: options.message ?? (booted ? 'the guest printed the nonce' : `${reason}: the layer said why`),
    runAt: options.runAt,
    lastTransitionTime: options.runAt,
    ...(options.lastSuccessAt !== undefined ? { lastSuccessAt: options.lastSuccessAt } : booted ? { lastSuccessAt: options.runAt } : {}),
    nodeClass: options.nodeClass,
    classFailedRuns: options.classFailedRuns ?? (booted ? 0 : 1),
    seconds: options.seconds ?? (booted ? { scheduled: 2, launcherRunning: 9, vmiRunning: 14, guestMarker: 21 } : reason === 'NotScheduled' ? {} : { scheduled: 2 }),
    canaryVersion: '0.1.0',
  };
}
