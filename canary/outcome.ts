import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import type { VmBootReason } from '../core/report/schema.ts';

/**
 * What became of one canary VMI, by the layer that stopped it (pure; judged from the objects the
 * run last saw): the scheduler, the virt-launcher pod, KubeVirt starting the domain, the guest.
 */

export interface VmiCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** What the canary reads of a VMI. */
export interface VmiView {
  uid?: string;
  phase?: string;
  conditions?: VmiCondition[];
}

/** Everything the run saw of one VMI so far. */
export interface Sighting {
  vmi: VmiView | undefined;
  /** The VMI disappeared while the run did not delete it. */
  vmiGone: boolean;
  /** Its virt-launcher pod, latest version. */
  pod: V1Pod | undefined;
  /** The guest's serial console so far. */
  console: string;
  /** The console held this run's nonce. */
  markerSeen: boolean;
}

export interface Outcome {
  reason: VmBootReason;
  message: string;
}

/** How much of the console a GuestSilent result quotes. */
export const CONSOLE_TAIL = 400;

/** Container states that mean the launcher cannot start without someone fixing something. */
const FATAL_WAITING = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'CrashLoopBackOff', 'CreateContainerError', 'CreateContainerConfigError', 'RunContainerError', 'ErrImageNeverPull']);

export function isScheduled(pod: V1Pod | undefined): boolean {
  return pod?.status?.conditions?.some((condition) => condition.type === 'PodScheduled' && condition.status === 'True') ?? false;
}

/** virt-launcher's main container is `compute`. */
export function isLauncherRunning(pod: V1Pod | undefined): boolean {
  return pod?.status?.containerStatuses?.some((status) => status.name === 'compute' && status.state?.running !== undefined) ?? false;
}

export function isVmiRunning(vmi: VmiView | undefined): boolean {
  return vmi?.phase === 'Running';
}

function allStatuses(pod: V1Pod): V1ContainerStatus[] {
  return [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
}

/** `compute: ErrImagePull: <message>` for the first container stuck for good, else undefined. */
function fatalContainer(pod: V1Pod): string | undefined {
  for (const status of allStatuses(pod)) {
    const waiting = status.state?.waiting;
    if (waiting?.reason !== undefined && FATAL_WAITING.has(waiting.reason)) return `${status.name}: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`;
  }
  return undefined;
}

/** The first container that ended in failure, with its message. */
function failedContainer(pod: V1Pod): string | undefined {
  for (const status of allStatuses(pod)) {
    const terminated = status.state?.terminated ?? status.lastState?.terminated;
    if (terminated !== undefined && terminated.exitCode !== 0) {
      return `${status.name}: exit ${terminated.exitCode}${terminated.reason ? ` (${terminated.reason})` : ''}${terminated.message ? `: ${terminated.message.trim()}` : ''}`;
    }
  }
  return undefined;
}

/** What keeps a started pod from running: its containers' waiting reasons. */
function waitingContainers(pod: V1Pod): string {
  const waiting = allStatuses(pod)
    .filter((status) => status.state?.waiting !== undefined)
    .map((status) => `${status.name} waiting (${status.state?.waiting?.reason ?? 'no reason'}${status.state?.waiting?.message ? `: ${status.state.waiting.message}` : ''})`);
  return waiting.length > 0 ? waiting.join('; ') : `pod phase ${pod.status?.phase ?? 'unknown'}`;
}

/** KubeVirt's own words for a VMI that is not running: the conditions that are not True. */
function vmiWords(vmi: VmiView | undefined): string {
  const said = (vmi?.conditions ?? []).filter((condition) => condition.status !== 'True' && (condition.reason || condition.message));
  const words = said.map((condition) => `${condition.type}: ${[condition.reason, condition.message].filter(Boolean).join(': ')}`);
  return `phase ${vmi?.phase || 'none'}${words.length > 0 ? `; ${words.join('; ')}` : ''}`;
}

/** The scheduler's reason on a pod that is not bound. */
function schedulerWords(pod: V1Pod): string {
  const condition = pod.status?.conditions?.find((each) => each.type === 'PodScheduled');
  if (condition === undefined) return 'the scheduler has not looked at the pod yet';
  return [condition.reason, condition.message].filter(Boolean).join(': ') || 'no reason given';
}

function consoleTail(console: string): string {
  const trimmed = console.trimEnd();
  if (trimmed === '') return 'the console showed nothing';
  return `console tail: ${trimmed.length > CONSOLE_TAIL ? `…${trimmed.slice(-CONSOLE_TAIL)}` : trimmed}`;
}

/**
 * The result once it is known, or undefined while the VMI may still get further. `timedOut`: the
 * bound from the VMI's creation has passed, so whatever layer it is stuck at is the answer.
 */
export function outcomeOf(seen: Sighting, timedOut: boolean, boundSeconds: number): Outcome | undefined {
  if (seen.markerSeen) return { reason: 'Booted', message: "the guest printed this run's nonce on its serial console" };
  if (seen.vmiGone) return { reason: 'VmiDeleted', message: 'the VMI was deleted by someone else before the guest printed its marker' };
  if (seen.vmi?.phase === 'Failed') return { reason: 'VmiFailed', message: `KubeVirt set the VMI to Failed: ${vmiWords(seen.vmi)}` };
  const pod = seen.pod;
  if (pod !== undefined) {
    if (pod.status?.phase === 'Failed') return { reason: 'LauncherFailed', message: `the virt-launcher pod failed: ${failedContainer(pod) ?? pod.status.message ?? pod.status.reason ?? 'no message'}` };
    const fatal = fatalContainer(pod);
    if (fatal !== undefined) return { reason: 'LauncherFailed', message: `the virt-launcher pod cannot start: ${fatal}` };
  }
  if (!timedOut) return undefined;

  const within = `within ${boundSeconds} s`;
  if (pod === undefined) {
    return { reason: 'NotScheduled', message: `no virt-launcher pod appeared for the VMI ${within} (KubeVirt's virt-controller did not act on it); ${vmiWords(seen.vmi)}` };
  }
  if (!isScheduled(pod)) return { reason: 'NotScheduled', message: `the virt-launcher pod was not scheduled ${within}: ${schedulerWords(pod)}` };
  if (!isLauncherRunning(pod)) return { reason: 'LauncherFailed', message: `the virt-launcher pod did not start ${within}: ${waitingContainers(pod)}` };
  if (!isVmiRunning(seen.vmi)) return { reason: 'NotStarted', message: `the launcher ran but KubeVirt did not report the VMI Running ${within}: ${vmiWords(seen.vmi)}` };
  return { reason: 'GuestSilent', message: `the VMI ran but the guest did not print this run's nonce ${within}; ${consoleTail(seen.console)}` };
}
