import { describe, expect, it } from 'vitest';
import { DEVICE_RULES, type DeviceFacts, evaluateDevice, type FileKind } from './devices.ts';

const present = (over: Partial<Extract<DeviceFacts, { state: 'present' }>> = {}): DeviceFacts => ({
  path: 'dev/kvm',
  state: 'present',
  kind: 'char',
  major: 10,
  minor: 232,
  expected: '10:232',
  open: 'ok',
  ...over,
});

describe('evaluateDevice: says why a device is unusable', () => {
  it('missing: fail for kvm and tun, warn for vhost-net, with a remedy', () => {
    expect(evaluateDevice({ path: 'dev/kvm', state: 'missing' }, DEVICE_RULES.kvm)).toMatchObject({
      id: 'dev.kvm',
      status: 'fail',
      message: '/dev/kvm does not exist',
      hint: 'Load the KVM module for this CPU: kvm_intel with VT-x, kvm_amd with AMD-V.',
    });
    expect(evaluateDevice({ path: 'dev/net/tun', state: 'missing' }, DEVICE_RULES.tun).status).toBe('fail');
    expect(evaluateDevice({ path: 'dev/vhost-net', state: 'missing' }, DEVICE_RULES.vhostNet)).toMatchObject({ id: 'dev.vhost-net', status: 'warn' });
  });

  it.each<[FileKind, string]>([
    ['file', '/dev/kvm is a regular file, not a character device'],
    ['directory', '/dev/kvm is a directory, not a character device'],
    ['block', '/dev/kvm is a block device, not a character device'],
    ['other', '/dev/kvm is a FIFO, socket or other special file, not a character device'],
  ])('wrong type (%s)', (kind, message) => {
    expect(evaluateDevice(present({ kind, open: 'skipped' }), DEVICE_RULES.kvm)).toMatchObject({ status: 'fail', message });
  });

  it('wrong numbers, with the mknod that fixes it', () => {
    expect(evaluateDevice(present({ major: 1, minor: 3, open: 'skipped' }), DEVICE_RULES.kvm)).toMatchObject({
      status: 'fail',
      message: '/dev/kvm is character device 1:3, expected 10:232',
      hint: 'Recreate it as a 10:232 character device (mknod /dev/kvm c 10 232).',
    });
  });

  it.each(['ENODEV', 'ENXIO'])('driver not loaded (%s)', (errno) => {
    expect(evaluateDevice(present({ open: errno }), DEVICE_RULES.kvm)).toMatchObject({
      status: 'fail',
      message: `/dev/kvm exists but its driver is not loaded (open: ${errno})`,
    });
  });

  it.each(['EACCES', 'EPERM', 'EROFS'])('permission (%s)', (errno) => {
    expect(evaluateDevice(present({ open: errno }), DEVICE_RULES.kvm)).toMatchObject({
      status: 'fail',
      message: `/dev/kvm exists but cannot be opened read-write (${errno})`,
      hint: expect.stringMatching(/privileged/),
    });
  });

  it('vhost-net problems stay warnings whatever the reason', () => {
    for (const facts of [present({ path: 'dev/vhost-net', expected: '10:238', minor: 238, open: 'ENODEV' }), present({ path: 'dev/vhost-net', kind: 'file', open: 'skipped' })]) {
      expect(evaluateDevice(facts, DEVICE_RULES.vhostNet).status).toBe('warn');
    }
  });

  it('an opening device passes', () => {
    expect(evaluateDevice(present(), DEVICE_RULES.kvm)).toEqual({
      id: 'dev.kvm',
      status: 'pass',
      message: '/dev/kvm (10:232) opens read-write',
      observed: { path: '/dev/kvm', kind: 'char', major: 10, minor: 232, expected: '10:232', open: 'ok' },
    });
  });

  it('an unknown state or an unexpected errno is error, not fail', () => {
    expect(evaluateDevice({ path: 'dev/kvm', state: 'unknown', reason: 'stat dev/kvm: EIO' }, DEVICE_RULES.kvm)).toEqual({
      id: 'dev.kvm',
      status: 'error',
      message: 'could not inspect /dev/kvm: stat dev/kvm: EIO',
    });
    expect(evaluateDevice(present({ open: 'EIO' }), DEVICE_RULES.kvm).status).toBe('error');
  });
});
