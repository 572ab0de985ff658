import { describe, expect, it } from 'vitest';
import { exampleFacts, type HostFacts } from '../../core/checks/registry.ts';
import type { CheckOutcome, Verdict } from '../../core/checks/verdict.ts';
import { nodeKeys } from '../../core/kube/names.ts';
import { nodeValidationStatusSchema, storedNodeValidationSchema } from '../../core/report/schema.ts';
import type { TaintConfig } from '../config.ts';
import { desiredCondition } from './condition.ts';
import { desiredLabels } from './labels.ts';
import { labelPatch, taintChanges } from './node-diff.ts';
import { formatOwnership, parseOwnership } from '../../core/kube/ownership.ts';
import { buildReport } from '../../core/report/build.ts';
import type { TaintReport } from '../../core/report/schema.ts';
import { changedFields, reportConditions, statusContent } from './report.ts';
import { guardAllows, refuseTaint } from './share-guard.ts';
import { type DesiredTaints, desiredTaints } from './taint.ts';
import type { Ownership } from '../../core/kube/ownership.ts';
import type { EffectiveVerdict } from './verdict-hold.ts';
import { holdVerdict } from './verdict-hold.ts';

const keys = nodeKeys();

// Every family's example, then what these tests depend on: a host whose devices are all missing.
const facts = {
  ...exampleFacts('/host'),
  cpu: { state: 'ok', value: { arch: 'x86_64', vendor: 'intel', model: 'Xeon', processors: 8, vmx: true, svm: false, hypervisor: false, features: ['aes', 'avx', 'avx2', 'sse4_2'] } },
  kvm: { path: 'dev/kvm', state: 'missing' },
  tun: { path: 'dev/net/tun', state: 'missing' },
  vhostNet: { path: 'dev/vhost-net', state: 'missing' },
  kernelRelease: { state: 'ok', value: '5.14.0-503.el9.x86_64' },
  os: { state: 'unknown', reason: 'x' },
  modules: { state: 'unknown', reason: 'x' },
  nested: { kvmIntel: null, kvmAmd: null },
  cgroup: { state: 'unknown', reason: 'x' },
  iommu: { state: 'unknown', reason: 'x' },
} satisfies HostFacts;

function verdict(statuses: Partial<Record<CheckOutcome['id'], CheckOutcome['status']>>, over: Partial<Verdict> = {}): Verdict {
  const checks = Object.entries(statuses).map(([id, status]) => ({ id, status, message: `${id} is ${status}` }) as CheckOutcome);
  return { tier: 'hardware', ready: true, conclusive: true, checks, ...over };
}

/** The agent's report of a verdict on `facts`, as the agent builds it. */
const build = (v: Verdict, effective: EffectiveVerdict, taint: TaintReport) => buildReport({ verdict: v, effective, facts, agentVersion: '0.1.0', taint });

const hardware = verdict({ 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'dev.vhost-net': 'warn' });

describe('holdVerdict (no churn)', () => {
  it('passes a conclusive verdict through', () => {
    expect(holdVerdict(hardware, { tier: 'none', ready: false })).toEqual({ tier: 'hardware', ready: true, held: false, undecided: false });
  });
  it('keeps the published verdict when a tier check ended in error', () => {
    const inconclusive = verdict({ 'dev.kvm': 'error' }, { tier: 'emulation', ready: false, conclusive: false });
    expect(holdVerdict(inconclusive, { tier: 'hardware', ready: true })).toEqual({ tier: 'hardware', ready: true, held: true, undecided: false });
    expect(holdVerdict(inconclusive, undefined)).toMatchObject({ ready: false, undecided: true });
  });
});

describe('labels', () => {
  it('derives every label from the verdict and facts', () => {
    const labels = desiredLabels(keys, hardware, holdVerdict(hardware, undefined), facts, {});
    expect(labels).toEqual({
      'virtgate.io/ready': 'true',
      'virtgate.io/tier': 'hardware',
      'virtgate.io/kvm': 'true',
      'virtgate.io/tun': 'true',
      'virtgate.io/vhost-net': 'false',
      'virtgate.io/cpu-vendor': 'intel',
      'virtgate.io/nested': 'false',
      'virtgate.io/kernel': '5.14',
    });
  });
  it('keeps the current value of a label whose check could not run', () => {
    const withError = verdict({ 'cpu.virtualization': 'pass', 'dev.kvm': 'error', 'dev.tun': 'pass' }, { conclusive: false });
    const current = { 'virtgate.io/kvm': 'true', 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware' };
    const labels = desiredLabels(keys, withError, holdVerdict(withError, { tier: 'hardware', ready: true }), facts, current);
    expect(labels['virtgate.io/kvm']).toBe('true');
    expect(labels['virtgate.io/ready']).toBe('true');
    const undecided = desiredLabels(keys, withError, holdVerdict(withError, undefined), facts, {});
    expect(undecided['virtgate.io/kvm']).toBeUndefined();
    expect(undecided['virtgate.io/ready']).toBeUndefined();
  });
  it('patches only changed keys and removes only owned ones', () => {
    const patch = labelPatch(
      { 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware' },
      { 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'emulation', 'virtgate.io/old': 'x', 'team/foreign': 'y', 'virtgate.io/unowned': 'z' },
      ['virtgate.io/ready', 'virtgate.io/tier', 'virtgate.io/old'],
    );
    expect(patch).toEqual({ 'virtgate.io/tier': 'hardware', 'virtgate.io/old': null });
    expect(labelPatch({ a: '1' }, { a: '1' }, ['a'])).toEqual({});
  });
});

describe('ownership annotation', () => {
  it('round-trips in a canonical order, so equal ownership never causes a write', () => {
    const text = formatOwnership({ labels: ['b', 'a', 'a'], taints: ['t'] });
    expect(text).toBe('{"labels":["a","b"],"taints":["t"]}');
    expect(parseOwnership(text)).toEqual({ labels: ['a', 'b'], taints: ['t'] });
  });
  it('treats a missing or mangled annotation as owning nothing', () => {
    for (const bad of [undefined, '', 'not json', '{"labels":"x"}', '[1,2]', 'null']) {
      expect(parseOwnership(bad)).toEqual({ labels: [], taints: [] });
    }
  });
});

describe('taint policy', () => {
  const config: TaintConfig = { policy: 'not-ready', poolSelector: '', effect: 'NoSchedule', allowNoExecute: false, maxShare: 0.5 };
  const failing = { tier: 'none' as const, ready: false, held: false, undecided: false };
  const ready = { tier: 'hardware' as const, ready: true, held: false, undecided: false };
  const owned = { labels: [], taints: [keys.notReadyTaint] };
  const ours = { key: keys.notReadyTaint, value: 'true', effect: 'NoSchedule' };
  /** What the policy changes on a node that carries `taints`. */
  const taintAction = (cfg: TaintConfig, effective: EffectiveVerdict, taints: Array<{ key: string; effect: string }>, ownership: Ownership) =>
    taintChanges(desiredTaints(cfg, keys, effective, ownership), taints);
  const none = { add: [], remove: [] };
  const add = (taint: object) => ({ add: [taint], remove: [] });
  const remove = (key: string) => ({ add: [], remove: [key] });

  it('taints a failing node, lifts its own taint once ready', () => {
    expect(taintAction(config, failing, [], { labels: [], taints: [] })).toEqual(add(ours));
    expect(taintAction(config, failing, [ours], owned)).toEqual(none);
    expect(taintAction(config, ready, [ours], owned)).toEqual(remove(keys.notReadyTaint));
  });
  it('never lifts a taint it does not own, and never acts on a held verdict', () => {
    expect(taintAction(config, ready, [ours], { labels: [], taints: [] })).toEqual(none);
    expect(taintAction(config, { ...failing, held: true }, [], owned)).toEqual(none);
  });
  it('uses the configured effect', () => {
    expect(taintAction({ ...config, effect: 'NoExecute', allowNoExecute: true }, failing, [], owned)).toMatchObject({ add: [{ effect: 'NoExecute' }] });
  });
  it('bootstrap removes the registration taint only once ready', () => {
    const boot: TaintConfig = { ...config, policy: 'bootstrap', bootstrapKey: 'node.example.com/unvalidated' };
    const registration = { key: 'node.example.com/unvalidated', effect: 'NoSchedule' };
    expect(taintAction(boot, failing, [registration], { labels: [], taints: [] })).toEqual(none);
    expect(taintAction(boot, ready, [registration], { labels: [], taints: [] })).toEqual(remove(registration.key));
  });
  it('off lifts a taint left from an earlier policy', () => {
    expect(taintAction({ ...config, policy: 'off' }, failing, [ours], owned)).toEqual(remove(keys.notReadyTaint));
  });
  it('a refusal by the share guard keeps the taint off (and takes it off again)', () => {
    const refused: DesiredTaints = refuseTaint(desiredTaints(config, keys, failing, owned), keys.notReadyTaint);
    expect(taintChanges(refused, [])).toEqual(none);
    expect(taintChanges(refused, [ours])).toEqual(remove(keys.notReadyTaint));
  });
});

describe('share guard', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 11, 2, 0, minute));
  it('allows up to floor(share × pool) tainted nodes, earliest first', () => {
    const pool = [{ name: 'a', taintedAt: at(1) }, { name: 'b' }, { name: 'c' }, { name: 'd' }];
    expect(guardAllows(pool, 'b', 0.5).allowed).toBe(true);
    expect(guardAllows([...pool.slice(0, 1), { name: 'b', taintedAt: at(2) }, { name: 'c' }, { name: 'd' }], 'c', 0.5).allowed).toBe(false);
  });
  it('makes simultaneous taints give way deterministically', () => {
    const pool = ['a', 'b', 'c', 'd'].map((name) => ({ name, taintedAt: at(5) }));
    const allowed = pool.filter((node) => guardAllows(pool, node.name, 0.5).allowed).map((n) => n.name);
    expect(allowed).toEqual(['a', 'b']);
  });
  it('never taints the only node of a pool at 50%', () => {
    expect(guardAllows([{ name: 'solo' }], 'solo', 0.5).allowed).toBe(false);
  });
});

describe('condition', () => {
  it('has a CamelCase reason and one line for each outcome', () => {
    const h = holdVerdict(hardware, undefined);
    expect(desiredCondition(hardware, h)).toMatchObject({ status: 'True', reason: 'HardwareVirtualization' });
    const none = verdict({ 'dev.tun': 'fail' }, { tier: 'none', ready: false });
    expect(desiredCondition(none, holdVerdict(none, undefined))).toMatchObject({ status: 'False', reason: 'NoTunDevice' });
    const inconclusive = verdict({ 'dev.kvm': 'error' }, { conclusive: false, ready: false });
    expect(desiredCondition(inconclusive, holdVerdict(inconclusive, undefined))).toMatchObject({ status: 'Unknown', reason: 'ProbeInconclusive' });
    expect(desiredCondition(inconclusive, holdVerdict(inconclusive, { tier: 'hardware', ready: true }))).toMatchObject({ status: 'True', reason: 'VerdictHeld' });
    for (const reason of ['HardwareVirtualization', 'NoTunDevice', 'ProbeInconclusive', 'VerdictHeld']) expect(reason).toMatch(/^[A-Z][A-Za-z]+$/);
  });
  it('keeps the message to one bounded line', () => {
    const long = verdict({ 'dev.tun': 'fail', 'kernel.version': 'fail' }, { tier: 'none', ready: false });
    long.checks = long.checks.map((c) => ({ ...c, message: `${c.message} ${'x'.repeat(400)}` }));
    const { message } = desiredCondition(long, holdVerdict(long, undefined));
    expect(message.length).toBeLessThanOrEqual(300);
    expect(message).not.toContain('\n');
  });
});

describe('report content', () => {
  it('ignores bookkeeping timestamps and sees real changes', () => {
    const content = build(hardware, holdVerdict(hardware, undefined), { policy: 'off', applied: false });
    const published = { ...JSON.parse(JSON.stringify(content)), probedAt: 'a', heartbeatAt: 'b', lastTransitionAt: 'c' };
    expect(changedFields(content, published)).toEqual([]);
    expect(changedFields(content, { ...published, tier: 'none' })).toEqual(['tier']);
    expect(changedFields(content, undefined).length).toBeGreaterThan(5);
  });

  it('is what the report schema says the agent writes, and what the CRD admits', () => {
    const observed = { ...hardware, checks: [...hardware.checks, { id: 'kernel.version', status: 'pass', message: 'm', hint: 'h', observed: { release: '5.14' } } as CheckOutcome] };
    const held = holdVerdict(observed, undefined);
    const verdict = build(observed, held, { policy: 'bootstrap', applied: true, refused: 'too many' });
    const content = statusContent(verdict, desiredCondition(observed, held), 1, undefined, new Date('2026-12-02T12:00:00.250Z'));
    const stamp = new Date('2026-12-02T12:00:00Z').toISOString();
    const status = JSON.parse(JSON.stringify({ ...content, probedAt: stamp, heartbeatAt: stamp, lastTransitionAt: stamp })) as unknown;
    const parsed = nodeValidationStatusSchema.safeParse(status);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const object = { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: 'n1' }, spec: { nodeName: 'n1' }, status };
    expect(storedNodeValidationSchema.safeParse(object).success).toBe(true);
    // Without its kernel the report is no longer what the agent writes.
    expect(nodeValidationStatusSchema.safeParse({ ...(status as object), kernel: undefined }).success).toBe(false);
  });

  it('mirrors the verdict in a Ready condition whose lastTransitionTime changes only with its status', () => {
    const readyHeld = holdVerdict(hardware, undefined);
    const wanted = desiredCondition(hardware, readyHeld);
    const first = new Date('2026-12-02T12:00:00.750Z');
    const [ready] = reportConditions(wanted, 1, undefined, first);
    expect(ready).toEqual({ type: 'Ready', status: 'True', observedGeneration: 1, lastTransitionTime: '2026-12-02T12:00:00Z', reason: 'HardwareVirtualization', message: wanted.message });
    // Same status an hour later, even with another message: the transition time stays, so an unchanged verdict writes nothing.
    const later = new Date('2026-12-02T13:00:00Z');
    expect(reportConditions(wanted, 1, [ready!], later)).toEqual([ready]);
    expect(reportConditions({ ...wanted, message: 'other' }, 1, [ready!], later)[0]?.lastTransitionTime).toBe(ready?.lastTransitionTime);
    const verdict = build(hardware, readyHeld, { policy: 'off', applied: false });
    const published = JSON.parse(JSON.stringify({ ...statusContent(verdict, wanted, 1, undefined, first), probedAt: 'a' }));
    expect(changedFields(statusContent(verdict, wanted, 1, published, later), published)).toEqual([]);
    // A new status is a transition; a new generation is news.
    const failing = { ...wanted, status: 'False' as const, reason: 'HostCheckFailed' };
    expect(reportConditions(failing, 1, [ready!], later)[0]).toMatchObject({ status: 'False', reason: 'HostCheckFailed', lastTransitionTime: '2026-12-02T13:00:00Z' });
    expect(changedFields(statusContent(verdict, wanted, 2, published, later), published)).toEqual(['conditions', 'observedGeneration']);
    // Another writer's condition types and a malformed list are not kept: the status is the agent's.
    expect(reportConditions(wanted, 1, [{ ...ready!, type: 'Foreign' }, ready!], later)).toEqual([ready]);
    expect(reportConditions(wanted, 1, 'x' as never, first)).toEqual([ready]);
  });
});
