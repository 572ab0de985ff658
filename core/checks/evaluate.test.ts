import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeviceFacts } from './families/devices.ts';
import { isEnterpriseLinux, isEnterpriseLinuxKernel } from './host/enterprise-linux.ts';
import { decide, evaluate, TIER_CHECKS } from './evaluate.ts';
import type { OsRelease } from './host/parse/os-release.ts';
import { DEFAULT_POLICY, type Policy } from './policy.ts';
import { CHECK_IDS, type CheckId, exampleFacts, type HostFacts } from './registry.ts';
import { CHECK_STATUSES, type CheckStatus } from './outcome.ts';
import type { CheckOutcome, Verdict } from './verdict.ts';
import type { VhvFacts } from './families/vhv.ts';

const device = (path: string, major: number, minor: number, open = 'ok'): DeviceFacts => ({
  path,
  state: 'present',
  kind: 'char',
  major,
  minor,
  expected: `${major}:${minor}`,
  open,
});

const os = (fields: Partial<OsRelease> & { id: string }): HostFacts['os'] => ({
  state: 'ok',
  value: { idLike: [], versionId: '', name: fields.id, prettyName: fields.id, ...fields },
});

/** A healthy RHEL 9 Intel metal host, as plain facts: every family's example (registry.ts). */
function metal(overrides: Partial<HostFacts> = {}): HostFacts {
  return { ...exampleFacts(), ...overrides };
}

const NO_VHV: VhvFacts = { state: 'disabled' };
const noVmx = { state: 'ok', value: { arch: 'x86_64', vendor: 'intel', model: 'Xeon', processors: 2, vmx: false, svm: false, hypervisor: true, features: [] as string[] } } as const;

function checkOf(verdict: Verdict, id: CheckId): CheckOutcome {
  const found = verdict.checks.find((check) => check.id === id);
  if (!found) throw new Error(`no ${id} check`);
  return found;
}

describe('evaluate: tiers', () => {
  it('every check id appears exactly once, in the documented order', () => {
    expect(evaluate(metal(), NO_VHV, DEFAULT_POLICY).checks.map((check) => check.id)).toEqual([...CHECK_IDS]);
  });

  it('hardware when cpu, kvm and tun pass: ready, conclusive', () => {
    expect(evaluate(metal(), NO_VHV, DEFAULT_POLICY)).toMatchObject({ tier: 'hardware', ready: true, conclusive: true });
  });

  it('emulation when KVM is missing but tun works: not ready unless emulation is allowed', () => {
    const facts = metal({ cpu: noVmx, kvm: { path: 'dev/kvm', state: 'missing' } });
    expect(evaluate(facts, NO_VHV, DEFAULT_POLICY)).toMatchObject({ tier: 'emulation', ready: false, conclusive: true });
    expect(evaluate(facts, NO_VHV, { ...DEFAULT_POLICY, allowEmulation: true })).toMatchObject({ tier: 'emulation', ready: true });
  });

  it('emulation when vmx is there but /dev/kvm gives ENODEV', () => {
    const verdict = evaluate(metal({ kvm: device('dev/kvm', 10, 232, 'ENODEV') }), NO_VHV, DEFAULT_POLICY);
    expect(verdict.tier).toBe('emulation');
    expect(checkOf(verdict, 'dev.kvm').message).toBe('/dev/kvm exists but its driver is not loaded (open: ENODEV)');
  });

  it('none without tun, even when KVM works and emulation is allowed', () => {
    const verdict = evaluate(metal({ tun: { path: 'dev/net/tun', state: 'missing' } }), NO_VHV, { ...DEFAULT_POLICY, allowEmulation: true });
    expect(verdict).toMatchObject({ tier: 'none', ready: false });
  });

  it('allowEmulation never changes a hardware or none verdict', () => {
    for (const facts of [metal(), metal({ tun: { path: 'dev/net/tun', state: 'missing' } })]) {
      const strict = evaluate(facts, NO_VHV, DEFAULT_POLICY);
      const lax = evaluate(facts, NO_VHV, { ...DEFAULT_POLICY, allowEmulation: true });
      expect([lax.tier, lax.ready]).toEqual([strict.tier, strict.ready]);
    }
  });

  it('a missing vhost-net only warns', () => {
    const verdict = evaluate(metal({ vhostNet: { path: 'dev/vhost-net', state: 'missing' } }), NO_VHV, DEFAULT_POLICY);
    expect(checkOf(verdict, 'dev.vhost-net').status).toBe('warn');
    expect(verdict).toMatchObject({ tier: 'hardware', ready: true });
  });

  it('a failing non-tier check (a missing cgroup controller) blocks ready but keeps the tier', () => {
    const verdict = evaluate(metal({ cgroup: { state: 'ok', value: { version: 2, controllers: ['cpu', 'cpuset'] } } }), NO_VHV, DEFAULT_POLICY);
    expect(verdict).toMatchObject({ tier: 'hardware', ready: false });
  });
});

describe('evaluate: error is not fail', () => {
  it('an unreadable cpuinfo gives error (not fail), and the verdict is marked inconclusive', () => {
    const verdict = evaluate(metal({ cpu: { state: 'unknown', reason: 'proc/cpuinfo could not be read (EIO)' } }), NO_VHV, DEFAULT_POLICY);
    expect(checkOf(verdict, 'cpu.virtualization')).toEqual({ id: 'cpu.virtualization', status: 'error', message: 'proc/cpuinfo could not be read (EIO)' });
    expect(verdict.conclusive).toBe(false);
  });

  it('a device that could not be inspected gives error', () => {
    const verdict = evaluate(metal({ tun: { path: 'dev/net/tun', state: 'unknown', reason: 'stat dev/net/tun: EIO' } }), NO_VHV, DEFAULT_POLICY);
    expect(checkOf(verdict, 'dev.tun').status).toBe('error');
    expect(verdict.conclusive).toBe(false);
  });

  it('an unexpected open() errno (EIO, EBUSY) is error, not fail', () => {
    for (const errno of ['EIO', 'EBUSY', 'EMFILE']) {
      expect(checkOf(evaluate(metal({ kvm: device('dev/kvm', 10, 232, errno) }), NO_VHV, DEFAULT_POLICY), 'dev.kvm').status).toBe('error');
    }
  });

  it('errors in checks that do not decide the tier change neither tier nor ready', () => {
    const facts = metal({
      kernelRelease: { state: 'unknown', reason: 'x' },
      os: { state: 'unknown', reason: 'x' },
      modules: { state: 'unknown', reason: 'x' },
      cgroup: { state: 'unknown', reason: 'x' },
      iommu: { state: 'unknown', reason: 'x' },
    });
    const verdict = evaluate(facts, { state: 'timeout', command: 'virt-host-validate', seconds: 30 }, DEFAULT_POLICY);
    for (const id of ['kernel.version', 'os.userland', 'kernel.modules', 'cgroup', 'iommu', 'virt-host-validate'] as const) {
      expect(checkOf(verdict, id).status).toBe('error');
    }
    expect(verdict).toMatchObject({ tier: 'hardware', ready: true, conclusive: true });
  });

  const statusArb = fc.constantFrom<CheckStatus>(...CHECK_STATUSES);
  const checksArb = fc.tuple(...CHECK_IDS.map(() => statusArb)).map((statuses) =>
    CHECK_IDS.map((id, n): CheckOutcome => ({ id, status: statuses[n] ?? 'pass', message: 'm' })),
  );
  const policyArb = fc.record({ allowEmulation: fc.boolean(), minKernel: fc.constant('4.18') });
  const withStatus = (checks: CheckOutcome[], id: CheckId, status: CheckStatus) => checks.map((c) => (c.id === id ? { ...c, status } : c));

  it('decide: an error never decides more than a fail would, and never passes for a fail (property)', () => {
    fc.assert(
      fc.property(checksArb, policyArb, fc.constantFrom(...CHECK_IDS), (checks, policy: Policy, id) => {
        const asError = decide(withStatus(checks, id, 'error'), policy);
        const asFail = decide(withStatus(checks, id, 'fail'), policy);
        const asPass = decide(withStatus(checks, id, 'pass'), policy);
        // The tier a check in error gives is the tier its failure would give: never better.
        expect(asError.tier).toBe(asFail.tier);
        if (TIER_CHECKS.includes(id)) {
          expect(asError.conclusive).toBe(false);
        } else {
          // Outside the tier checks, an error is neither a blocker nor a tier change: it reads as a pass.
          expect([asError.tier, asError.ready]).toEqual([asPass.tier, asPass.ready]);
          expect(asError.conclusive).toBe(asPass.conclusive);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('decide: ready implies a qualifying tier and no fail anywhere; conclusive means no tier check in error (property)', () => {
    fc.assert(
      fc.property(checksArb, policyArb, (checks, policy: Policy) => {
        const verdict = decide(checks, policy);
        const status = (id: CheckId) => checks.find((c) => c.id === id)?.status;
        if (verdict.ready) {
          expect(verdict.tier === 'hardware' || (verdict.tier === 'emulation' && policy.allowEmulation)).toBe(true);
          expect(checks.filter((c) => !TIER_CHECKS.includes(c.id)).every((c) => c.status !== 'fail')).toBe(true);
        }
        expect(verdict.conclusive).toBe(TIER_CHECKS.every((id) => status(id) !== 'error'));
        expect(verdict.tier === 'hardware').toBe(TIER_CHECKS.every((id) => status(id) === 'pass'));
        expect(verdict.tier === 'none').toBe(status('dev.tun') !== 'pass');
        expect(verdict.checks).toBe(checks);
      }),
      { numRuns: 400 },
    );
  });
});

describe('evaluate: kernel minimum', () => {
  it.each([
    ['4.18.0-553.el8_10.x86_64', '4.18', 'pass'],
    ['4.14.350-266.564.amzn2.x86_64', '4.18', 'fail'],
    ['5.14.0-427.el9.x86_64', '5.15', 'fail'],
    ['5.15.0-126-generic', '5.15', 'pass'],
    ['6.1.0-28-cloud-amd64', '6.1', 'pass'],
  ])('kernel %s with minimum %s: %s', (release, minKernel, status) => {
    const verdict = evaluate(metal({ kernelRelease: { state: 'ok', value: release } }), NO_VHV, { ...DEFAULT_POLICY, minKernel });
    expect(checkOf(verdict, 'kernel.version').status).toBe(status);
  });

  it('a kernel below the minimum fails and blocks ready, with the minimum in the message', () => {
    const verdict = evaluate(metal({ kernelRelease: { state: 'ok', value: '4.14.350-266.564.amzn2.x86_64' } }), NO_VHV, DEFAULT_POLICY);
    expect(checkOf(verdict, 'kernel.version').message).toBe('kernel 4.14.350-266.564.amzn2.x86_64 is older than the minimum 4.18');
    expect(verdict).toMatchObject({ tier: 'hardware', ready: false });
  });
});

describe('evaluate: Enterprise Linux and kubevirt#16386', () => {
  it.each([
    ['rhel', ['fedora']],
    ['centos', ['rhel', 'fedora']],
    ['rocky', ['rhel', 'centos', 'fedora']],
    ['almalinux', ['rhel', 'centos', 'fedora']],
    ['ol', []],
  ])('%s is Enterprise Linux', (id, idLike) => {
    const verdict = evaluate(metal({ os: os({ id, idLike }) }), NO_VHV, DEFAULT_POLICY);
    expect(checkOf(verdict, 'os.userland').status).toBe('pass');
  });

  it.each([
    ['amzn', ['fedora'], 'Amazon Linux 2023'],
    ['amzn', ['centos', 'rhel', 'fedora'], 'Amazon Linux 2'],
    ['bottlerocket', [], 'Bottlerocket OS 1.26.2'],
    ['ubuntu', ['debian'], 'Ubuntu 24.04.1 LTS'],
    ['debian', [], 'Debian GNU/Linux 12 (bookworm)'],
    ['fedora', [], 'Fedora Linux 41'],
  ])('%s (ID_LIKE %j) is not Enterprise Linux: warn, not fail', (id, idLike, prettyName) => {
    const verdict = evaluate(metal({ os: os({ id, idLike, prettyName }) }), NO_VHV, DEFAULT_POLICY);
    expect(checkOf(verdict, 'os.userland')).toMatchObject({ status: 'warn', message: expect.stringMatching(new RegExp(`^${prettyName.replace(/[()]/g, '\\$&')} is not Enterprise Linux`)) });
    expect(verdict.ready).toBe(true);
  });

  it('ID_LIKE never makes a distribution Enterprise Linux', () => {
    expect(isEnterpriseLinux({ id: 'amzn', idLike: ['rhel', 'centos', 'fedora'], versionId: '2', name: 'Amazon Linux', prettyName: 'Amazon Linux 2' })).toBe(false);
    // Not even an ID that only looks like one of the family's keys.
    expect(isEnterpriseLinux({ id: 'constructor', idLike: [], versionId: '', name: '', prettyName: '' })).toBe(false);
  });

  it('recognises EL kernels by their .elN tag', () => {
    expect(isEnterpriseLinuxKernel('5.14.0-427.13.1.el9_4.x86_64')).toBe(true);
    expect(isEnterpriseLinuxKernel('4.18.0-553.el8_10.x86_64')).toBe(true);
    expect(isEnterpriseLinuxKernel('6.1.119-129.201.amzn2023.x86_64')).toBe(false);
    expect(isEnterpriseLinuxKernel('6.8.0-1019-aws')).toBe(false);
    expect(isEnterpriseLinuxKernel('6.12.8-200.fc41.x86_64')).toBe(false);
  });

  it.each([
    ['6.8.0-1019-aws', 'warn'],
    ['6.2.0-39-generic', 'warn'],
    ['6.12.13-34.130.amzn2023.x86_64', 'warn'],
    ['6.1.119-129.201.amzn2023.x86_64', 'pass'],
    ['6.1.0-28-cloud-amd64', 'pass'],
    ['5.15.0-126-generic', 'pass'],
    // An EL kernel is exempt: Red Hat backports selectively.
    ['6.12.0-55.9.1.el10_0.x86_64', 'pass'],
  ])('kernel %s on a non-EL host: %s for the virtio-net USO issue', (release, status) => {
    const verdict = evaluate(metal({ kernelRelease: { state: 'ok', value: release }, os: os({ id: 'ubuntu', idLike: ['debian'] }) }), NO_VHV, DEFAULT_POLICY);
    const check = checkOf(verdict, 'kernel.version');
    expect(check.status).toBe(status);
    if (status === 'warn') {
      expect(check.message).toContain('kubevirt/kubevirt#16386');
      expect(check.observed).toMatchObject({ issues: ['virtio-net-uso'], enterpriseLinuxKernel: false });
      // A known-issue warning never blocks readiness.
      expect(verdict.ready).toBe(true);
    }
  });
});

describe('evaluate: other checks', () => {
  it('kernel.modules warns only for modules whose device does not already work', () => {
    const facts = metal({ modules: { state: 'ok', value: { sources: ['sys/module'], loaded: [] } } });
    expect(checkOf(evaluate(facts, NO_VHV, DEFAULT_POLICY), 'kernel.modules').status).toBe('pass');
    const broken = metal({ modules: { state: 'ok', value: { sources: ['sys/module'], loaded: ['tun'] } }, kvm: { path: 'dev/kvm', state: 'missing' }, vhostNet: { path: 'dev/vhost-net', state: 'missing' } });
    expect(checkOf(evaluate(broken, NO_VHV, DEFAULT_POLICY), 'kernel.modules')).toMatchObject({ status: 'warn', observed: { missing: ['kvm', 'kvm_intel', 'vhost_net'] } });
  });

  it('kvm.nested: bare metal passes (noting nested), a VM warns', () => {
    expect(checkOf(evaluate(metal({ nested: { kvmIntel: 'Y', kvmAmd: null } }), NO_VHV, DEFAULT_POLICY), 'kvm.nested')).toMatchObject({ status: 'pass', message: expect.stringMatching(/nested virtualization is enabled/) });
    const vm = metal({ cpu: { state: 'ok', value: { arch: 'x86_64', vendor: 'intel', model: 'Xeon', processors: 2, vmx: true, svm: false, hypervisor: true, features: [] } } });
    expect(checkOf(evaluate(vm, NO_VHV, DEFAULT_POLICY), 'kvm.nested').status).toBe('warn');
  });

  it('iommu is informational: off still passes', () => {
    expect(checkOf(evaluate(metal({ iommu: { state: 'ok', value: { present: true, groups: 0, units: 0 } } }), NO_VHV, DEFAULT_POLICY), 'iommu').status).toBe('pass');
  });

  it('evaluate is pure: the same input gives the same output and the input is untouched', () => {
    const facts = metal();
    const before = JSON.stringify(facts);
    expect(evaluate(facts, NO_VHV, DEFAULT_POLICY)).toEqual(evaluate(facts, NO_VHV, DEFAULT_POLICY));
    expect(JSON.stringify(facts)).toBe(before);
  });
});
