import { describe, expect, it } from 'vitest';
import type { VmBoot } from '../core/report/schema.ts';
import { type NodeView, pickNodes } from './pick.ts';
import type { ReportView } from './report-view.ts';

const NOW = new Date('2026-12-05T12:00:00Z');
const FRESH = '2026-12-05T11:58:00Z';

function node(name: string, unschedulable = false): NodeView {
  return { name, hostname: name, unschedulable };
}

/** A ready node of class A (intel, metal) unless told otherwise. */
function report(name: string, overrides: Partial<ReportView> = {}): ReportView {
  return {
    node: name,
    ready: true,
    heartbeatAt: FRESH,
    tier: 'hardware',
    kernel: '6.12',
    cpuVendor: 'intel',
    cpuBrand: 'Intel Xeon Gold 6338',
    platform: { kind: 'bare-metal' },
    vmBoot: undefined,
    ...overrides,
  };
}

const CLASS_A = 'intel/xeon-gold-6338/hardware/kernel-6.12/metal';
const CLASS_B = 'amd/epyc-9654/hardware/kernel-6.12/metal';
const amd = (name: string, overrides: Partial<ReportView> = {}) => report(name, { cpuVendor: 'amd', cpuBrand: 'AMD EPYC 9654', ...overrides });

function booted(runAt: string, nodeClass = CLASS_A, classFailedRuns = 0): VmBoot {
  return { status: 'True', reason: 'Booted', message: '', runAt, lastTransitionTime: runAt, nodeClass, classFailedRuns, seconds: {}, canaryVersion: '0.1.0' };
}

const OPTIONS = { maxVmis: 3, staleAfterSeconds: 1800, now: NOW };

describe('pickNodes', () => {
  it('skips nodes without a report, not ready, stale, cordoned, or reports without a Node, each with its reason', () => {
    const picks = pickNodes(
      [node('bare'), node('down'), node('old'), node('cordoned', true), node('good')],
      [report('down', { ready: false }), report('old', { heartbeatAt: '2026-12-05T11:00:00Z' }), report('cordoned'), report('good'), report('ghost')],
      OPTIONS,
    );
    expect(picks.picked.map((pick) => pick.node)).toEqual(['good']);
    expect(picks.skipped).toEqual([
      { node: 'bare', reason: 'NoReport' },
      { node: 'cordoned', reason: 'Cordoned' },
      { node: 'down', reason: 'NotReady' },
      { node: 'ghost', reason: 'NoNode' },
      { node: 'old', reason: 'Stale' },
    ]);
  });

  it('a report with no heartbeat is stale, and one exactly at the limit still counts', () => {
    const picks = pickNodes([node('a'), node('b')], [report('a', { heartbeatAt: undefined }), amd('b', { heartbeatAt: '2026-12-05T11:30:00Z' })], OPTIONS);
    expect(picks.skipped).toEqual([{ node: 'a', reason: 'Stale' }]);
    expect(picks.picked.map((pick) => pick.node)).toEqual(['b']);
  });

  it('picks one node per class: never run first, then the oldest run, ties by name', () => {
    const picks = pickNodes(
      [node('a1'), node('a2'), node('a3'), node('b1'), node('b2')],
      [report('a1', { vmBoot: booted('2026-12-05T10:00:00Z') }), report('a2'), report('a3'), amd('b1', { vmBoot: booted('2026-12-05T09:00:00Z', CLASS_B) }), amd('b2', { vmBoot: booted('2026-12-05T08:00:00Z', CLASS_B) })],
      OPTIONS,
    );
    expect(picks.picked.map(({ node: name, nodeClass }) => ({ name, nodeClass }))).toEqual([
      { name: 'a2', nodeClass: CLASS_A },
      { name: 'b2', nodeClass: CLASS_B },
    ]);
    expect(picks.skipped).toEqual([
      { node: 'a1', reason: 'ClassPicked' },
      { node: 'a3', reason: 'ClassPicked' },
      { node: 'b1', reason: 'ClassPicked' },
    ]);
  });

  it('rotates through a class over three runs, with no state but the published results', () => {
    const nodes = [node('n1'), node('n2'), node('n3')];
    const reports = new Map(nodes.map((each) => [each.name, report(each.name)]));
    const order: string[] = [];
    for (const hour of ['10', '11', '12']) {
      // The agents keep their heartbeats fresh between runs.
      for (const [name, each] of reports) reports.set(name, { ...each, heartbeatAt: `2026-12-05T${hour}:00:00Z` });
      const [pick] = pickNodes(nodes, [...reports.values()], { ...OPTIONS, now: new Date(`2026-12-05T${hour}:00:00Z`) }).picked;
      order.push(pick!.node);
      reports.set(pick!.node, { ...reports.get(pick!.node)!, vmBoot: booted(`2026-12-05T${hour}:00:00Z`) });
    }
    expect(order).toEqual(['n1', 'n2', 'n3']);
  });

  it('caps the VMIs, trying the classes whose pick ran longest ago first, and says which were over the cap', () => {
    const reports = [
      report('a', { vmBoot: booted('2026-12-05T11:00:00Z') }),
      amd('b', { vmBoot: booted('2026-12-05T09:00:00Z', CLASS_B) }),
      report('c', { kernel: '6.8' }),
      report('d', { tier: 'emulation', vmBoot: booted('2026-12-05T10:00:00Z', 'x') }),
    ];
    const picks = pickNodes(reports.map((each) => node(each.node)), reports, { ...OPTIONS, maxVmis: 2 });
    // c never ran, b ran at 09:00: they go first; d (10:00) and a (11:00) wait for the next run.
    expect(picks.picked.map((pick) => pick.node)).toEqual(['c', 'b']);
    expect(picks.skipped).toEqual([
      { node: 'a', reason: 'OverCap' },
      { node: 'd', reason: 'OverCap' },
    ]);
  });

  it("counts the class's failed runs on from its latest result, whichever node it was on", () => {
    const failed = (runAt: string, classFailedRuns: number): VmBoot => ({ ...booted(runAt, CLASS_A, classFailedRuns), status: 'False', reason: 'GuestSilent' });
    const picks = pickNodes(
      [node('a1'), node('a2'), node('a3')],
      [report('a1', { vmBoot: failed('2026-12-05T11:00:00Z', 2) }), report('a2', { vmBoot: failed('2026-12-05T10:00:00Z', 1) }), report('a3', { ready: false, vmBoot: failed('2026-12-05T11:30:00Z', 3) })],
      OPTIONS,
    );
    expect(picks.picked).toEqual([{ node: 'a2', hostname: 'a2', nodeClass: CLASS_A, previous: failed('2026-12-05T10:00:00Z', 1), classFailedRunsBefore: 3 }]);
  });

  it('picks nothing from an empty cluster', () => {
    expect(pickNodes([], [], OPTIONS)).toEqual({ picked: [], skipped: [] });
  });
});
