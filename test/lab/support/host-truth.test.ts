/**
 * The real node's invariants (test/node/host-truth.ts) can fail: on readings of the two kinds of
 * host written here by hand, a report that is right passes and each kind of wrong report is named.
 */
import { describe, expect, it } from 'vitest';
import { disagreements, type HostReading, type Published } from '../../node/host-truth.ts';

/** This kind of machine: x86 without VT-x, /dev/kvm served by kvm_pvm, tun, no vhost-net. */
const PVM_VM: HostReading = {
  arm64: false,
  x86WithoutHwVirt: true,
  kvm: 'ok',
  kvmPvm: true,
  tun: 'ok',
  vhostNet: 'missing',
  misc: ['tun', 'kvm'],
  kvmRunStep: null,
  kvmUsable: false,
};

const METAL: HostReading = { ...PVM_VM, x86WithoutHwVirt: false, kvmPvm: false, vhostNet: 'ok', misc: ['tun', 'kvm', 'vhost-net'], kvmUsable: true };

const PVM_REPORT: Published = {
  tier: 'emulation',
  ready: false,
  checks: { 'cpu.virtualization': 'fail', 'dev.kvm': 'warn', 'dev.tun': 'pass', 'dev.vhost-net': 'warn', 'kvm.run': 'pass', 'virt-host-validate': 'fail' },
  labels: { ready: 'false', tier: 'emulation' },
  condition: 'False',
};

const METAL_REPORT: Published = {
  tier: 'hardware',
  ready: true,
  checks: { 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'dev.vhost-net': 'pass', 'kvm.run': 'pass', 'virt-host-validate': 'warn' },
  labels: { ready: 'true', tier: 'hardware' },
  condition: 'True',
};

describe('the real node invariants', () => {
  it('hold for a right report on a host without usable KVM and on one with it', () => {
    expect(disagreements(PVM_VM, PVM_REPORT)).toEqual([]);
    expect(disagreements(METAL, METAL_REPORT)).toEqual([]);
  });

  it('name a hardware claim without usable KVM: tier, ready, dev.kvm', () => {
    const found = disagreements(PVM_VM, { ...METAL_REPORT, checks: { ...PVM_REPORT.checks, 'dev.kvm': 'pass' } });
    expect(found.join('\n')).toMatch(/tier hardware, want emulation/);
    expect(found.join('\n')).toMatch(/ready true, want false/);
    expect(found.join('\n')).toMatch(/dev\.kvm is pass, want warn/);
  });

  it('name a host with KVM reported as not ready for no failing check, and labels or a condition that contradict the report', () => {
    const found = disagreements(METAL, { ...METAL_REPORT, ready: false, labels: { ready: 'true', tier: 'emulation' }, condition: 'True' });
    expect(found).toHaveLength(4);
    expect(found.join('\n')).toMatch(/ready false, want true/);
  });

  it('name kvm.run passing where the ioctls fail, and dev.tun passing without the tun driver', () => {
    const found = disagreements({ ...PVM_VM, kvmRunStep: 'create', misc: ['kvm'], tun: 'ENODEV' }, PVM_REPORT);
    expect(found.join('\n')).toMatch(/kvm\.run is pass, want fail/);
    expect(found.join('\n')).toMatch(/dev\.tun: never passes without the tun misc driver/);
  });
});
