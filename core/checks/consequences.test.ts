import { describe, expect, it } from 'vitest';
import { keepHonestCauses, rootCause } from './consequences.ts';
import type { CheckOutcome } from './verdict.ts';

const check = (id: CheckOutcome['id'], status: CheckOutcome['status'], followsFrom?: string): CheckOutcome => ({ id, status, message: id, ...(followsFrom ? { followsFrom } : {}) });

describe('consequences', () => {
  it('keeps a cause that did not pass, and drops one that passed, skipped, is unknown or is the check itself', () => {
    const checks = [
      check('cpu.virtualization', 'fail'),
      check('dev.kvm', 'fail', 'cpu.virtualization'),
      check('dev.tun', 'pass'),
      check('kvm.run', 'fail', 'dev.tun'),
      check('virt-host-validate', 'fail', 'no.such.check'),
      check('hugepages', 'skip'),
      check('iommu', 'warn', 'hugepages'),
      check('cgroup', 'fail', 'cgroup'),
    ];
    expect(keepHonestCauses(checks).map((c) => [c.id, c.followsFrom])).toEqual([
      ['cpu.virtualization', undefined],
      ['dev.kvm', 'cpu.virtualization'],
      ['dev.tun', undefined],
      ['kvm.run', undefined],
      ['virt-host-validate', undefined],
      ['hugepages', undefined],
      ['iommu', undefined],
      ['cgroup', undefined],
    ]);
  });

  it('rootCause walks the chain to its first cause, and stops where a cycle closes', () => {
    const chain = [check('cpu.virtualization', 'fail'), check('dev.kvm', 'fail', 'cpu.virtualization'), check('kvm.run', 'fail', 'dev.kvm')];
    expect(rootCause(chain, 'kvm.run')).toBe('cpu.virtualization');
    expect(rootCause(chain, 'cpu.virtualization')).toBe('cpu.virtualization');
    const cycle = [check('dev.kvm', 'fail', 'kvm.run'), check('kvm.run', 'fail', 'dev.kvm')];
    expect(rootCause(cycle, 'kvm.run')).toBe('dev.kvm');
  });
});
