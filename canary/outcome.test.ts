/**
 * Each layer's failure, judged from objects in the shape the API server returns them: a
 * virt-launcher pod as the scheduler and the kubelet leave it, a VMI as virt-controller and
 * virt-handler leave it. The expectations are written out by hand.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { outcomeOf, type Sighting } from './outcome.ts';

const T = new Date('2026-12-05T12:00:00Z');

const unschedulable: V1Pod = {
  metadata: { name: 'virt-launcher-canary-abc-xyz12', labels: { 'kubevirt.io/created-by': 'uid-1' } },
  status: {
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: '0/3 nodes are available: 1 Insufficient devices.kubevirt.io/kvm, 2 node(s) didn\'t match Pod\'s node affinity/selector.',
        lastTransitionTime: T,
      },
    ],
  },
};

const scheduled = (containerStatuses: NonNullable<V1Pod['status']>['containerStatuses'], phase = 'Pending'): V1Pod => ({
  metadata: { name: 'virt-launcher-canary-abc-xyz12', labels: { 'kubevirt.io/created-by': 'uid-1' } },
  status: { phase, conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: T }], containerStatuses },
});

const running = scheduled(
  [
    { name: 'compute', image: 'virt-launcher', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: T } } },
    { name: 'guest-console-log', image: 'virt-launcher', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: T } } },
  ],
  'Running',
);

const nothing: Sighting = { vmi: { uid: 'uid-1', phase: 'Scheduling' }, vmiGone: false, pod: undefined, console: '', markerSeen: false };

describe('outcomeOf', () => {
  it('Booted as soon as the marker is seen, whatever else', () => {
    expect(outcomeOf({ ...nothing, pod: running, vmi: { phase: 'Running' }, markerSeen: true }, false, 180)).toEqual({ reason: 'Booted', message: "the guest printed this run's nonce on its serial console" });
  });

  it('waits while nothing is wrong and the bound has not passed', () => {
    expect(outcomeOf(nothing, false, 180)).toBeUndefined();
    expect(outcomeOf({ ...nothing, pod: unschedulable }, false, 180)).toBeUndefined();
    expect(outcomeOf({ ...nothing, pod: running, vmi: { phase: 'Running' }, console: 'SeaBIOS' }, false, 180)).toBeUndefined();
  });

  it("NotScheduled with the scheduler's reason and message", () => {
    expect(outcomeOf({ ...nothing, pod: unschedulable }, true, 180)).toEqual({
      reason: 'NotScheduled',
      message: "the virt-launcher pod was not scheduled within 180 s: Unschedulable: 0/3 nodes are available: 1 Insufficient devices.kubevirt.io/kvm, 2 node(s) didn't match Pod's node affinity/selector.",
    });
  });

  it('NotScheduled when KubeVirt never made a launcher pod', () => {
    expect(outcomeOf(nothing, true, 20)).toEqual({
      reason: 'NotScheduled',
      message: "no virt-launcher pod appeared for the VMI within 20 s (KubeVirt's virt-controller did not act on it); phase Scheduling",
    });
  });

  it("LauncherFailed at once when a container cannot start, with the kubelet's message", () => {
    const pullFailed = scheduled([
      {
        name: 'volumecanary-init',
        image: 'registry.example/virtgate/canary-disk:0.1.0',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: { waiting: { reason: 'ErrImagePull', message: 'failed to pull image "registry.example/virtgate/canary-disk:0.1.0": not found' } },
      },
    ]);
    expect(outcomeOf({ ...nothing, pod: pullFailed }, false, 180)).toEqual({
      reason: 'LauncherFailed',
      message: 'the virt-launcher pod cannot start: volumecanary-init: ErrImagePull: failed to pull image "registry.example/virtgate/canary-disk:0.1.0": not found',
    });
  });

  it('LauncherFailed when the pod failed, with the failed container\'s message', () => {
    const failed = scheduled([{ name: 'compute', image: 'virt-launcher', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error', message: 'virt-launcher: failed to connect to libvirt\n' } } }], 'Failed');
    expect(outcomeOf({ ...nothing, pod: failed }, false, 180)).toEqual({ reason: 'LauncherFailed', message: 'the virt-launcher pod failed: compute: exit 1 (Error): virt-launcher: failed to connect to libvirt' });
  });

  it('LauncherFailed when the scheduled pod never ran within the bound', () => {
    const creating = scheduled([{ name: 'compute', image: 'virt-launcher', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }]);
    expect(outcomeOf({ ...nothing, pod: creating }, false, 180)).toBeUndefined();
    expect(outcomeOf({ ...nothing, pod: creating }, true, 180)).toEqual({ reason: 'LauncherFailed', message: 'the virt-launcher pod did not start within 180 s: compute waiting (ContainerCreating)' });
  });

  it("NotStarted when the launcher ran but the VMI never did, with KubeVirt's conditions", () => {
    const vmi = { phase: 'Scheduled', conditions: [{ type: 'Ready', status: 'False', reason: 'PodNotReady' }, { type: 'Synchronized', status: 'False', reason: 'SyncFailed', message: 'virError(Code=1): internal error: qemu unexpectedly closed the monitor' }] };
    expect(outcomeOf({ ...nothing, vmi, pod: running }, true, 180)).toEqual({
      reason: 'NotStarted',
      message: 'the launcher ran but KubeVirt did not report the VMI Running within 180 s: phase Scheduled; Ready: PodNotReady; Synchronized: SyncFailed: virError(Code=1): internal error: qemu unexpectedly closed the monitor',
    });
  });

  it("VmiFailed at once, with KubeVirt's reason", () => {
    const vmi = { phase: 'Failed', conditions: [{ type: 'Ready', status: 'False', reason: 'GuestNotRunning', message: 'Guest VM is not reported as running' }] };
    expect(outcomeOf({ ...nothing, vmi, pod: running }, false, 180)).toEqual({
      reason: 'VmiFailed',
      message: 'KubeVirt set the VMI to Failed: phase Failed; Ready: GuestNotRunning: Guest VM is not reported as running',
    });
  });

  it('GuestSilent with the last 400 characters of the console', () => {
    const console = `${'x'.repeat(1000)}\r\nBooting from Hard Disk...\r\n`;
    const outcome = outcomeOf({ ...nothing, vmi: { phase: 'Running' }, pod: running, console }, true, 180);
    expect(outcome?.reason).toBe('GuestSilent');
    expect(outcome?.message).toBe(`the VMI ran but the guest did not print this run's nonce within 180 s; console tail: …${console.trimEnd().slice(-400)}`);
    expect(outcomeOf({ ...nothing, vmi: { phase: 'Running' }, pod: running }, true, 180)?.message).toBe("the VMI ran but the guest did not print this run's nonce within 180 s; the console showed nothing");
  });

  it('VmiDeleted when someone else deleted the VMI', () => {
    expect(outcomeOf({ ...nothing, vmiGone: true, pod: running }, false, 180)).toEqual({ reason: 'VmiDeleted', message: 'the VMI was deleted by someone else before the guest printed its marker' });
  });
});
