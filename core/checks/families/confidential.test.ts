import { describe, expect, it } from 'vitest';
import type { VhvFacts } from './vhv.ts';
import { type ConfidentialFacts, evaluateConfidential, firstFlags, miscMinor, parseFlatKeyed, readKinds } from './confidential.ts';

/** An EPYC host with SEV, SEV-ES and SEV-SNP fully on, /dev/sev the ccp driver's (10:124), ASIDs counted. */
const SNP_HOST: ConfidentialFacts = {
  arch: 'x86_64',
  flags: { sev: true, sevEs: true, sevSnp: true, tdxHostPlatform: false },
  parameters: { sev: 'Y', sevEs: 'Y', sevSnp: 'Y', tdx: null },
  sevDevice: { path: 'dev/sev', state: 'present', kind: 'char', major: 10, minor: 124, expected: '10:124', open: 'ok' },
  sevMiscMinor: 124,
  asids: { sev: { capacity: 410, current: 0 }, sevEs: { capacity: 99, current: 99 } },
  tdxKeyIds: null,
  unreadable: [],
};
const TDX_HOST: ConfidentialFacts = {
  ...SNP_HOST,
  flags: { sev: false, sevEs: false, sevSnp: false, tdxHostPlatform: true },
  parameters: { sev: null, sevEs: null, sevSnp: null, tdx: 'Y' },
  sevDevice: { path: 'dev/sev', state: 'missing' },
  sevMiscMinor: null,
  asids: { sev: null, sevEs: null },
  tdxKeyIds: { capacity: 47, current: 2 },
};
const ok = (value: ConfidentialFacts) => ({ state: 'ok' as const, value });
const available = (facts: ConfidentialFacts) => readKinds(facts).filter((kind) => kind.available).map((kind) => kind.kind);
const reason = (facts: ConfidentialFacts, kind: string) => {
  const found = readKinds(facts).find((reading) => reading.kind === kind);
  return found && !found.available ? found.reason : undefined;
};
const vhvSaying = (status: 'PASS' | 'WARN', detail?: string): VhvFacts => ({
  state: 'ran',
  source: 'recording',
  exitCode: 0,
  lines: [{ driver: 'QEMU', label: 'Checking for secure guest support', status, ...(detail ? { detail } : {}) }],
  unparsed: [],
  unparsedCount: 0,
});

describe('parsers', () => {
  it('reads the first flags line, proc/misc minors and flat-keyed cgroup files', () => {
    expect([...(firstFlags('processor\t: 0\nflags\t\t: fpu sev sev_es\n') ?? [])]).toEqual(['fpu', 'sev', 'sev_es']);
    expect(firstFlags('processor\t: 0\nFeatures\t: fp asimd\n')).toBeNull();
    expect(miscMinor(' 232 kvm\n 124 sev\n', 'sev')).toBe(124);
    expect(miscMinor(' 232 kvm\n', 'sev')).toBeNull();
    expect(Object.fromEntries(parseFlatKeyed('sev 410\nsev_es 99\n'))).toEqual({ sev: 410, sev_es: 99 });
  });
});

describe('readKinds: each kind, and the first thing that stops it (kernel parameters as sysfs shows them)', () => {
  it('an SEV-SNP host whose SEV-ES ASIDs are all taken: plain SEV still starts, ES and SNP do not', () => {
    expect(available(SNP_HOST)).toEqual(['sev']);
    expect(reason(SNP_HOST, 'sev-es')).toBe('all 99 SEV-ES ASIDs are in use (misc.current)');
    // SNP guests take SEV-ES ASIDs.
    expect(reason(SNP_HOST, 'sev-snp')).toBe('SEV-SNP needs SEV-ES: all 99 SEV-ES ASIDs are in use (misc.current)');
  });

  it('kvm_amd.sev_snp=N: SEV and SEV-ES start, SNP names the parameter and the command line', () => {
    const facts = { ...SNP_HOST, parameters: { ...SNP_HOST.parameters, sevSnp: 'N' }, asids: { sev: null, sevEs: null } };
    expect(available(facts)).toEqual(['sev', 'sev-es']);
    expect(reason(facts, 'sev-snp')).toBe('kvm_amd.sev_snp=N');
    expect(readKinds(facts).find((kind) => kind.kind === 'sev-snp')).toMatchObject({ remedy: expect.stringContaining('kvm_amd.sev_snp=1') });
  });

  it('older kernels show int parameters (1/0); SEV-ES off makes SNP say it needs SEV-ES', () => {
    const facts = { ...SNP_HOST, parameters: { sev: '1', sevEs: '0', sevSnp: '1', tdx: null }, asids: { sev: null, sevEs: null } };
    expect(available(facts)).toEqual(['sev']);
    expect(reason(facts, 'sev-es')).toBe('kvm_amd.sev_es=0');
    expect(reason(facts, 'sev-snp')).toBe('SEV-SNP needs SEV-ES: kvm_amd.sev_es=0');
  });

  it('every AMD kind needs SEV: /dev/sev absent, not served, or not openable read-write', () => {
    const missing = { ...SNP_HOST, sevDevice: { path: 'dev/sev', state: 'missing' as const } };
    expect(available(missing)).toEqual([]);
    expect(reason(missing, 'sev-snp')).toMatch(/^no \/dev\/sev/);
    expect(reason({ ...SNP_HOST, sevMiscMinor: null }, 'sev')).toBe('/dev/sev exists but proc/misc lists no sev driver');
    const denied = { ...SNP_HOST, sevDevice: { ...SNP_HOST.sevDevice, open: 'EACCES' } as ConfidentialFacts['sevDevice'] };
    expect(reason(denied, 'sev')).toBe('/dev/sev does not open read-write (EACCES), which QEMU needs');
    expect(reason({ ...SNP_HOST, parameters: { ...SNP_HOST.parameters, sev: 'N' } }, 'sev')).toBe('kvm_amd.sev=N');
  });

  it('TDX: the tdx_host_platform flag and kvm_intel.tdx=Y; N says KVM may have turned it off', () => {
    expect(available(TDX_HOST)).toEqual(['tdx']);
    expect(reason({ ...TDX_HOST, parameters: { ...TDX_HOST.parameters, tdx: 'N' } }, 'tdx')).toMatch(/^kvm_intel\.tdx=N: .*TDX module did not initialise/);
    expect(reason({ ...TDX_HOST, parameters: { ...TDX_HOST.parameters, tdx: null } }, 'tdx')).toMatch(/kvm_intel has no tdx parameter/);
    expect(reason({ ...TDX_HOST, flags: { ...TDX_HOST.flags, tdxHostPlatform: false } }, 'tdx')).toMatch(/no tdx_host_platform flag/);
  });

  it('TDX also needs what KubeVirt v1.9.0 offers devices.kubevirt.io/tdx for: a tdx capacity in misc.capacity, and a KeyID left', () => {
    expect(readKinds(TDX_HOST).find((kind) => kind.kind === 'tdx')).toEqual({ kind: 'tdx', available: true, keyIdsFree: 45 });
    expect(reason({ ...TDX_HOST, tdxKeyIds: null }, 'tdx')).toMatch(/^the misc cgroup shows no tdx capacity .*KubeVirt offers no devices\.kubevirt\.io\/tdx/);
    expect(reason({ ...TDX_HOST, tdxKeyIds: { capacity: 0, current: null } }, 'tdx')).toBe('the misc cgroup gives 0 TDX KeyIDs');
    expect(reason({ ...TDX_HOST, tdxKeyIds: { capacity: 47, current: 47 } }, 'tdx')).toBe('all 47 TDX KeyIDs are in use (misc.current)');
    // misc.current without the key: none in use.
    expect(readKinds({ ...TDX_HOST, tdxKeyIds: { capacity: 47, current: null } }).find((kind) => kind.kind === 'tdx')).toMatchObject({ available: true, keyIdsFree: 47 });
  });
});

describe('evaluateConfidential: informational, never a fail', () => {
  it('a host with neither: pass, says so, no remedy to chase', () => {
    const none = { ...TDX_HOST, flags: { ...TDX_HOST.flags, tdxHostPlatform: false }, parameters: { ...TDX_HOST.parameters, tdx: null } };
    const result = evaluateConfidential(ok(none));
    expect(result).toMatchObject({ status: 'pass', message: 'no confidential guests: the CPU shows neither sev nor tdx_host_platform (ordinary VMs do not need them)' });
    expect(result.hint).toBeUndefined();
  });

  it('an AMD host set up but for SEV-SNP: pass, the available kinds with ASIDs, the reason and the remedy for SNP', () => {
    const facts = { ...SNP_HOST, parameters: { ...SNP_HOST.parameters, sevSnp: 'N' }, asids: { sev: { capacity: 410, current: 3 }, sevEs: { capacity: 99, current: 1 } } };
    const result = evaluateConfidential(ok(facts));
    expect(result.status).toBe('pass');
    expect(result.message).toBe('confidential guests: SEV-ES, SEV (SEV-ES 98 ASIDs free, SEV 407 ASIDs free); not SEV-SNP: kvm_amd.sev_snp=N');
    expect(result.hint).toContain('kvm_amd.sev_snp=1');
    expect(result.observed).toMatchObject({ available: ['sev-es', 'sev'], kinds: { 'sev-snp': { available: false, reason: 'kvm_amd.sev_snp=N' } } });
  });

  it('an unreadable parameter is an error (the probe cannot tell), never a fail', () => {
    expect(evaluateConfidential(ok({ ...SNP_HOST, unreadable: ['sys/module/kvm_amd/parameters/sev_snp (EIO)'] })).status).toBe('error');
  });

  it('skips where it does not look: unreadable cpuinfo, arm64', () => {
    expect(evaluateConfidential({ state: 'unknown', reason: 'proc/cpuinfo: EIO' }).status).toBe('skip');
    expect(evaluateConfidential(ok({ ...TDX_HOST, arch: 'other' })).status).toBe('skip');
  });
});

describe("virt-host-validate's secure-guest line, where it disagrees", () => {
  it('libvirt 9.0 warns "Unknown" on a TDX host: virtgate believes kvm_intel.tdx=Y and says why', () => {
    const result = evaluateConfidential(ok(TDX_HOST), vhvSaying('WARN', 'Unknown if this platform has Secure Guest support'));
    expect(result.status).toBe('pass');
    expect(result.message).toBe('confidential guests: TDX (TDX 45 KeyIDs free); virt-host-validate warns "Unknown if this platform has Secure Guest support", but virtgate believes TDX can start (libvirt 9.0 does not look at TDX at all)');
  });

  it('libvirt passes a host whose /dev/sev does not open read-write: virtgate believes its open()', () => {
    const denied = { ...SNP_HOST, sevDevice: { ...SNP_HOST.sevDevice, open: 'EACCES' } as ConfidentialFacts['sevDevice'] };
    const result = evaluateConfidential(ok(denied), vhvSaying('PASS'));
    expect(result.message).toContain('virt-host-validate passes secure guests, but virtgate believes its own reading (/dev/sev does not open read-write (EACCES), which QEMU needs)');
  });

  it('agreement adds nothing', () => {
    const none = { ...TDX_HOST, flags: { ...TDX_HOST.flags, tdxHostPlatform: false } };
    expect(evaluateConfidential(ok(none), vhvSaying('WARN', 'Unknown if this platform has Secure Guest support')).message).not.toContain('virt-host-validate');
  });
});
