import { describe, expect, it } from 'vitest';
import { vmBootSchema, type VmBoot } from '../core/report/schema.ts';
import { nextVmBoot, vmBootPatch } from './vm-boot.ts';

const RUN_AT = new Date('2026-12-05T12:00:00.000Z');
const NOW = new Date('2026-12-05T12:00:07.000Z');
const CLASS = 'intel/xeon-gold-6338/hardware/kernel-6.12/metal';
const picked = (previous: VmBoot | undefined, classFailedRunsBefore = 0) => ({ node: 'worker-1', hostname: 'worker-1', nodeClass: CLASS, previous, classFailedRunsBefore });
const BOOTED = { reason: 'Booted', message: "the guest printed this run's nonce on its serial console" } as const;
const SILENT = { reason: 'GuestSilent', message: 'console tail: SeaBIOS' } as const;

describe('nextVmBoot', () => {
  it('a first boot: status True, transition and success now, the class count 0', () => {
    const vmBoot = nextVmBoot({ picked: picked(undefined, 2), outcome: BOOTED, seconds: { scheduled: 0.4, launcherRunning: 3.1, vmiRunning: 5.2, guestMarker: 6.0 }, runAt: RUN_AT, now: NOW, canaryVersion: '0.1.0' });
    expect(vmBoot).toEqual({
      status: 'True',
      reason: 'Booted',
      message: "the guest printed this run's nonce on its serial console",
      runAt: '2026-12-05T12:00:00.000Z',
      lastTransitionTime: '2026-12-05T12:00:07.000Z',
      lastSuccessAt: '2026-12-05T12:00:07.000Z',
      nodeClass: CLASS,
      classFailedRuns: 0,
      seconds: { scheduled: 0.4, launcherRunning: 3.1, vmiRunning: 5.2, guestMarker: 6.0 },
      canaryVersion: '0.1.0',
    });
    expect(vmBootSchema.safeParse(vmBoot).success).toBe(true);
  });

  it('a failure after a boot: transition now, last success carried, the class count one more', () => {
    const before = nextVmBoot({ picked: picked(undefined), outcome: BOOTED, seconds: {}, runAt: new Date('2026-12-05T11:00:00Z'), now: new Date('2026-12-05T11:00:05Z'), canaryVersion: '0.1.0' });
    const vmBoot = nextVmBoot({ picked: picked(before, 1), outcome: SILENT, seconds: { scheduled: 1 }, runAt: RUN_AT, now: NOW, canaryVersion: '0.1.0' });
    expect(vmBoot).toMatchObject({ status: 'False', reason: 'GuestSilent', lastTransitionTime: '2026-12-05T12:00:07.000Z', lastSuccessAt: '2026-12-05T11:00:05.000Z', classFailedRuns: 2 });
  });

  it('the same status again keeps its transition time, even with another reason', () => {
    const before = { ...nextVmBoot({ picked: picked(undefined), outcome: SILENT, seconds: {}, runAt: new Date('2026-12-05T11:00:00Z'), now: new Date('2026-12-05T11:00:05Z'), canaryVersion: '0.1.0' }) };
    const vmBoot = nextVmBoot({ picked: picked(before, 1), outcome: { reason: 'NotScheduled', message: 'x' }, seconds: {}, runAt: RUN_AT, now: NOW, canaryVersion: '0.1.0' });
    expect(vmBoot.lastTransitionTime).toBe('2026-12-05T11:00:05.000Z');
    expect(vmBoot).not.toHaveProperty('lastSuccessAt');
  });

  it('bounds the message to what the schema accepts', () => {
    const vmBoot = nextVmBoot({ picked: picked(undefined), outcome: { reason: 'GuestSilent', message: 'y'.repeat(5000) }, seconds: {}, runAt: RUN_AT, now: NOW, canaryVersion: '0.1.0' });
    expect(vmBoot.message).toHaveLength(4096);
    expect(vmBootSchema.safeParse(vmBoot).success).toBe(true);
  });
});

describe('vmBootPatch', () => {
  it('is one JSON Patch add of /status/vmBoot and nothing else', () => {
    const vmBoot = nextVmBoot({ picked: picked(undefined), outcome: BOOTED, seconds: {}, runAt: RUN_AT, now: NOW, canaryVersion: '0.1.0' });
    expect(vmBootPatch(vmBoot)).toEqual([{ op: 'add', path: '/status/vmBoot', value: vmBoot }]);
  });
});
