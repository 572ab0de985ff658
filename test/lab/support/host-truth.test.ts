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
  caller: 'agent',
  tier: 'emulation',
  ready: false,
  checks: { 'cpu.virtualization': 'fail', 'dev.kvm': 'warn', 'dev.tun': 'pass', 'dev.vhost-net': 'warn', 'kvm.run': 'pass', 'virt-host-validate': 'fail' },
  labels: { ready: 'false', tier: 'emulation' },
  condition: 'False',
};

const METAL_REPORT: Published = {
  caller: 'agent',
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

  it('name a host with KVM reported as not ready, and labels or a condition that contradict the host', () => {
    const found = disagreements(METAL, { ...METAL_REPORT, ready: false, labels: { ready: 'true', tier: 'emulation' }, condition: 'False' });
    expect(found).toHaveLength(3);
    expect(found.join('\n')).toMatch(/ready false, want true/);
    expect(found.join('\n')).toMatch(/label tier=emulation, want hardware/);
    expect(found.join('\n')).toMatch(/condition False, want True/);
  });

  it('decide ready from the host alone: a failing check does not excuse a host with usable KVM and tun', () => {
    const found = disagreements(METAL, { ...METAL_REPORT, ready: false, labels: { ready: 'false', tier: 'hardware' }, condition: 'False', checks: { ...METAL_REPORT.checks, 'virt-host-validate': 'fail' } });
    expect(found.join('\n')).toMatch(/ready false, want true/);
    expect(found.join('\n')).toMatch(/label ready=false, want true/);
  });

  it('fail when the agent published no label or no condition, and judge neither for `virtgate check --node`', () => {
    const found = disagreements(PVM_VM, { ...PVM_REPORT, labels: {}, condition: undefined });
    expect(found.join('\n')).toMatch(/label ready=absent, want false/);
    expect(found.join('\n')).toMatch(/label tier=absent, want emulation/);
    expect(found.join('\n')).toMatch(/condition absent, want False/);
    const { tier, ready, checks } = PVM_REPORT;
    expect(disagreements(PVM_VM, { caller: 'check --node', tier, ready, checks })).toEqual([]);
  });

  it('name kvm.run passing where the ioctls fail, and dev.tun passing without the tun driver', () => {
    const found = disagreements({ ...PVM_VM, kvmRunStep: 'create', misc: ['kvm'], tun: 'ENODEV' }, PVM_REPORT);
    expect(found.join('\n')).toMatch(/kvm\.run is pass, want fail/);
    expect(found.join('\n')).toMatch(/dev\.tun: never passes without the tun misc driver/);
  });

  it('want kvm.run skipped, not failed, under the host root of a node without /dev/kvm', () => {
    const noKvm: HostReading = { ...PVM_VM, kvm: 'missing', kvmPvm: false, kvmRunStep: 'open', misc: ['tun'] };
    const report: Published = { ...PVM_REPORT, checks: { ...PVM_REPORT.checks, 'dev.kvm': 'fail', 'kvm.run': 'fail' } };
    expect(disagreements(noKvm, report).join('\n')).toMatch(/kvm\.run is fail, want skip/);
    expect(disagreements(noKvm, { ...report, checks: { ...report.checks, 'kvm.run': 'skip' } })).toEqual([]);
  });

  it('want dev.vhost-net to warn, never fail, where it does not open', () => {
    expect(disagreements(PVM_VM, { ...PVM_REPORT, checks: { ...PVM_REPORT.checks, 'dev.vhost-net': 'fail' } }).join('\n')).toMatch(/dev\.vhost-net is fail, want warn/);
  });
});
