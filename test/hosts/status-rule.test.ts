/**
 * The rule docs/check.md promises ("What a status means"): a status never contradicts its message.
 * Every check on every fixture host, under both policies, as JSON-shaped results and as the table:
 *  - against the hand-written reading of each host (expected-readings.ts): each status, each
 *    consequence's cause, readiness, the KVM provider and the platform's remedy;
 *  - against the rule itself, with words a person reads as failure, and the facts the probe
 *    recorded (a guest that ran and failed is never a skip);
 *  - and an empty host root, where nothing may pass.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../core/checks/evaluate.ts';
import { readVhvRecording, type VhvFacts } from '../../core/checks/families/vhv.ts';
import { DEFAULT_POLICY, type Policy } from '../../core/checks/policy.ts';
import { probeHost } from '../../core/checks/probe-host.ts';
import { CHECK_IDS, type CheckId, type HostFacts } from '../../core/checks/registry.ts';
import type { CheckOutcome, Verdict } from '../../core/checks/verdict.ts';
import { renderCheckTable } from '../../cli/render/check-table.ts';
import { buildHost, HOST_PROFILES, type HostProfile } from '../lab/hosts/build-host.ts';
import { EXPECTED_READINGS, type ExpectedCheck, VM_PROFILES } from '../lab/hosts/expected-readings.ts';
import { PROFILES } from '../lab/hosts/profiles/profiles.ts';
import { tempDir, vhvFixture } from '../lab/hosts/paths.ts';

/** What a person reads as "something went wrong": a pass must never say it. */
const FAILURE_WORDS = /\b(cannot|can't|could not|couldn't|not found|failed|fails|unable|unavailable|denied|does not exist|not loaded|missing|refuses?)\b/i;
/** What only a check that ran and found a problem says: a skip must never say it. */
const OUTCOME_WORDS = /\b(failed at|FAIL\b|did not finish)/;

const MEMINFO_NO_HUGEPAGES = 'MemTotal:       65536000 kB\nHugePages_Total:       0\nHugePages_Free:        0\nHugePages_Rsvd:        0\nHugePages_Surp:        0\nHugepagesize:       2048 kB\n';

interface Reading {
  facts: HostFacts;
  strict: Verdict;
  lax: Verdict;
}

let base = '';
let remove = async () => {};
const readings = new Map<HostProfile, Reading>();

beforeAll(async () => {
  ({ dir: base, remove } = await tempDir('status-rule'));
  for (const profile of HOST_PROFILES) {
    const expected = EXPECTED_READINGS[profile];
    const host = await buildHost(path.join(base, profile), profile, { files: { 'proc/meminfo': MEMINFO_NO_HUGEPAGES } });
    // As on a real root: the tiny guest is run on whatever dev/kvm is, where it is not a stand-in.
    const kvmRun = expected.kvmRun === 'run' ? { enabled: true, devicePath: path.join(host.root, 'dev/kvm') } : { enabled: true };
    const facts = await probeHost(host.root, kvmRun);
    const vhv: VhvFacts = expected.vhv === 'disabled' ? { state: 'disabled' } : await readVhvRecording(await vhvFixture(expected.vhv));
    readings.set(profile, { facts, strict: evaluate(facts, vhv, DEFAULT_POLICY), lax: evaluate(facts, vhv, { ...DEFAULT_POLICY, allowEmulation: true }) });
  }
}, 120_000);
afterAll(() => remove());

function reading(profile: HostProfile): Reading {
  const found = readings.get(profile);
  if (!found) throw new Error(`${profile} was not read`);
  return found;
}

const shape = (check: CheckOutcome): ExpectedCheck => (check.followsFrom ? { status: check.status, followsFrom: check.followsFrom as CheckId } : check.status);
const byId = (verdict: Verdict, id: CheckId): CheckOutcome => {
  const check = verdict.checks.find((c) => c.id === id);
  if (!check) throw new Error(`no ${id}`);
  return check;
};

/** The rule, for one verdict: what each status may say, and what its facts allow. */
function assertRule(verdict: Verdict, facts: HostFacts, policy: Policy, where: string): void {
  const statusOf = new Map(verdict.checks.map((check) => [check.id as string, check.status]));
  for (const check of verdict.checks) {
    const at = `${where} ${check.id} (${check.status}): ${check.message}`;
    if (check.status === 'pass') expect(check.message, at).not.toMatch(FAILURE_WORDS);
    if (check.status === 'skip') expect(check.message, at).not.toMatch(OUTCOME_WORDS);
    // A problem of its own comes with a remedy; a consequence takes its cause's.
    if ((check.status === 'fail' || check.status === 'warn') && !check.followsFrom) expect(check.hint, at).toBeTruthy();
    if (check.followsFrom) {
      expect(check.followsFrom, at).not.toBe(check.id);
      expect(['fail', 'warn', 'error'], at).toContain(statusOf.get(check.followsFrom));
      expect(['fail', 'warn', 'error'], at).toContain(check.status);
    }
  }
  // The facts the JSON carries next to the statuses: a guest that ran and failed is a fail, never a skip.
  const run = facts.kvmRun;
  const expectedRun = run.state === 'not-run' ? 'skip' : { halted: 'pass', failed: 'fail', timeout: 'fail', error: 'error' }[run.outcome];
  expect(byId(verdict, 'kvm.run').status, `${where} kvm.run with facts ${JSON.stringify(run).slice(0, 120)}`).toBe(expectedRun);
  const vhv = byId(verdict, 'virt-host-validate');
  // The message names each problem line as `FAIL <label>`; "0 FAIL" is a count.
  if (vhv.status === 'warn' && /(: |; )FAIL /.test(vhv.message)) {
    // A warning that names FAIL lines must say why they are only warnings.
    expect(policy.allowEmulation, `${where} ${vhv.message}`).toBe(true);
    expect(vhv.message).toContain('count as warnings under --allow-emulation');
  }
  // READY never sits under a failure that is not KVM's (which --allow-emulation accepts) or a consequence of it.
  const chain = (id: string): string[] => {
    const ids = [id];
    for (let next = verdict.checks.find((c) => c.id === id)?.followsFrom; next !== undefined && !ids.includes(next); next = verdict.checks.find((c) => c.id === next)?.followsFrom) ids.push(next);
    return ids;
  };
  if (verdict.ready) {
    for (const check of verdict.checks.filter((c) => c.status === 'fail')) {
      expect(policy.allowEmulation, `${where}: READY with ${check.id} failing`).toBe(true);
      expect(chain(check.id).some((id) => id === 'cpu.virtualization' || id === 'dev.kvm'), `${where}: READY with ${check.id} failing`).toBe(true);
    }
  }
}

/** The table, for one verdict: rows say what the JSON says; consequences sit under their cause; READY explains FAIL rows. */
function assertTable(verdict: Verdict, where: string): void {
  const plain = renderCheckTable(verdict, '/host');
  const lines = plain.split('\n');
  for (const check of verdict.checks) {
    const own = lines.filter((line) => new RegExp(`^  ${check.status.toUpperCase()}\\s+${check.id.replace('.', '\\.')}\\s`).test(line));
    const marked = lines.filter((line) => new RegExp(`^ {4}↳ +${check.id.replace('.', '\\.')}\\s+follows from ${(check.followsFrom ?? '').replace('.', '\\.')} \\(${check.status.toUpperCase()}\\): `).test(line));
    if (check.followsFrom) {
      expect([own.length, marked.length], `${where} ${check.id} shown once, under its cause`).toEqual([0, 1]);
    } else {
      expect([own.length, marked.length], `${where} ${check.id} has its own row`).toEqual([1, 0]);
      // Without a width nothing wraps: the whole message is on its row.
      expect(own[0]).toContain(check.message);
    }
  }
  const failing = verdict.checks.filter((check) => check.status === 'fail');
  if (verdict.ready && failing.length > 0) expect(plain, where).toMatch(/The FAIL rows above \(.+\) say KVM acceleration is unusable; they do not block READY because --allow-emulation accepts emulated VMs\./);
  if (!verdict.ready) expect(plain, where).toContain('NOT READY for KubeVirt VMs');
  // Wrapped to 80 columns: no line is longer, every word is still there.
  const wrapped = renderCheckTable(verdict, '/host', { width: 80 });
  for (const line of wrapped.split('\n')) expect(line.length, `${where} wrapped: ${line}`).toBeLessThanOrEqual(80);
  expect(wrapped.replace(/\s+/g, ' ')).toBe(plain.replace(/\s+/g, ' '));
}

describe('a status never contradicts its message: every check on every fixture host', () => {
  it.each(HOST_PROFILES)('%s reads as written down by hand, under both policies', (profile) => {
    const expected = EXPECTED_READINGS[profile];
    const { facts, strict, lax } = reading(profile);
    expect(Object.fromEntries(strict.checks.map((check) => [check.id, shape(check)]))).toEqual(expected.checks);
    const laxChecks = { ...expected.checks, ...(expected.allowEmulationVhv ? { 'virt-host-validate': expected.allowEmulationVhv } : {}) };
    expect(Object.fromEntries(lax.checks.map((check) => [check.id, shape(check)]))).toEqual(laxChecks);
    expect({ strict: strict.ready, allowEmulation: lax.ready }).toEqual(expected.ready);
    assertRule(strict, facts, DEFAULT_POLICY, `${profile}:`);
    assertRule(lax, facts, { ...DEFAULT_POLICY, allowEmulation: true }, `${profile} --allow-emulation:`);
    assertTable(strict, `${profile}:`);
    assertTable(lax, `${profile} --allow-emulation:`);
  });

  it.each(HOST_PROFILES)('%s: the KVM provider in dev.kvm\'s row, and remedies that fit the machine', (profile) => {
    const expected = EXPECTED_READINGS[profile];
    const { strict } = reading(profile);
    if (expected.provider) expect(byId(strict, 'dev.kvm').message).toContain(`served by ${expected.provider}`);
    if (expected.remedy) for (const words of expected.remedy.says) expect(byId(strict, expected.remedy.check).hint).toContain(words);
    const advice = strict.checks.map((check) => `${check.message} ${check.hint ?? ''}`).join('\n');
    // Never a module the CPU cannot load: kvm_amd needs svm, kvm_intel vmx (read from the profile's cpuinfo).
    const flags = PROFILES[profile].cpuinfo;
    if (!/\bsvm\b/.test(flags)) expect(advice).not.toMatch(/modprobe[^.;]*kvm_amd/);
    if (!/\bvmx\b/.test(flags)) expect(advice).not.toMatch(/modprobe[^.;]*kvm_intel/);
    // A virtual machine's remedy is its hypervisor's, never a firmware switch.
    if (VM_PROFILES.includes(profile)) expect(advice).not.toMatch(/firmware/i);
  });

  it('every check id is judged on every host', () => {
    for (const profile of HOST_PROFILES) expect(Object.keys(EXPECTED_READINGS[profile].checks).sort()).toEqual([...CHECK_IDS].sort());
  });
});

describe('an empty host root', () => {
  it('passes nothing: iommu and hugepages skip, what cannot be read is an error, the missing devices fail', async () => {
    const root = path.join(base, 'empty');
    await mkdir(root);
    const facts = await probeHost(root, { enabled: false });
    for (const policy of [DEFAULT_POLICY, { ...DEFAULT_POLICY, allowEmulation: true }]) {
      const verdict = evaluate(facts, { state: 'disabled' }, policy);
      expect(verdict.checks.filter((check) => check.status === 'pass').map((check) => check.id)).toEqual([]);
      expect(byId(verdict, 'iommu').status).toBe('skip');
      expect(byId(verdict, 'hugepages').status).toBe('skip');
      expect(byId(verdict, 'cpu.virtualization').status).toBe('error');
      expect([verdict.tier, verdict.ready, verdict.conclusive]).toEqual(['none', false, false]);
      assertRule(verdict, facts, policy, 'empty root:');
      assertTable(verdict, 'empty root:');
    }
  });
});
