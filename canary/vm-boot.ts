import type { VmBoot } from '../core/report/schema.ts';
import type { Outcome } from './outcome.ts';
import type { PickedNode } from './pick.ts';

/** Seconds from the VMI's creation to each step the run saw. */
export type StepSeconds = VmBoot['seconds'];

/** The schema's limit on the message. */
const MAX_MESSAGE = 4096;

export interface VmBootInput {
  picked: PickedNode;
  outcome: Outcome;
  seconds: StepSeconds;
  /** When the run created the VMI. */
  runAt: Date;
  /** When the result was known. */
  now: Date;
  canaryVersion: string;
}

/**
 * The node's next `status.vmBoot` (pure): the time of the last transition kept while the status
 * stays the same, the last success carried forward, and the class's count of runs in a row
 * without a boot counted on from its latest result.
 */
export function nextVmBoot({ picked, outcome, seconds, runAt, now, canaryVersion }: VmBootInput): VmBoot {
  const booted = outcome.reason === 'Booted';
  const status = booted ? 'True' : 'False';
  const previous = picked.previous;
  const lastSuccessAt = booted ? now.toISOString() : previous?.lastSuccessAt;
  return {
    status,
    reason: outcome.reason,
    message: outcome.message.length > MAX_MESSAGE ? `${outcome.message.slice(0, MAX_MESSAGE - 1)}…` : outcome.message,
    runAt: runAt.toISOString(),
    lastTransitionTime: previous !== undefined && previous.status === status ? previous.lastTransitionTime : now.toISOString(),
    ...(lastSuccessAt !== undefined ? { lastSuccessAt } : {}),
    nodeClass: picked.nodeClass,
    classFailedRuns: booted ? 0 : picked.classFailedRunsBefore + 1,
    seconds,
    canaryVersion: canaryVersion.slice(0, 64),
  };
}

/** The one write the canary makes on a report: JSON Patch `add /status/vmBoot` on its status subresource. */
export function vmBootPatch(vmBoot: VmBoot): [{ op: 'add'; path: '/status/vmBoot'; value: VmBoot }] {
  return [{ op: 'add', path: '/status/vmBoot', value: vmBoot }];
}
