/** The closing summary's arithmetic: what the run reports, and that a lost object shows. */
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from './ledger.ts';
import { failures, renderSummary, summarise } from './summary.ts';

const entry = (kind: string, overrides: Partial<LedgerEntry> = {}): LedgerEntry => ({
  kind,
  test: `${kind} test`,
  injected: 1,
  recovered: true,
  convergeMs: 1000,
  objectsChecked: 6,
  objectsLost: 0,
  ...overrides,
});

describe('fault summary', () => {
  it('totals by kind: injections, recoveries, the longest convergence, objects', () => {
    const summary = summarise([
      entry('apiserver-kill', { convergeMs: 6100 }),
      entry('apiserver-kill', { injected: 2, convergeMs: 2400, objectsChecked: 18 }),
      entry('bad-config', { injected: 51, convergeMs: null, objectsChecked: 0 }),
      entry('etcd-restart', { recovered: false, convergeMs: null }),
    ]);
    expect(summary.kinds.map((kind) => [kind.kind, kind.injected, kind.recovered, kind.entries, kind.longestConvergeMs, kind.objectsChecked])).toEqual([
      ['apiserver-kill', 3, 2, 2, 6100, 24],
      ['bad-config', 51, 1, 1, null, 0],
      ['etcd-restart', 1, 0, 1, null, 6],
    ]);
    expect(summary.total).toEqual({ injected: 55, recovered: 3, entries: 4, longestConvergeMs: 6100, objectsChecked: 30, objectsLost: 0 });
    const text = renderSummary(summary);
    expect(text).toMatch(/apiserver-kill\s+3\s+2\/2\s+6\.1 s\s+24\s+0/);
    expect(text).toMatch(/bad-config\s+51\s+1\/1\s+—/);
    expect(text).toContain('objects lost: 0');
  });

  it('says loudly when an object was lost, and lists the fault that did not recover', () => {
    const entries = [entry('conflict-409', { objectsLost: 2, recovered: false, detail: 'writer taints gone' })];
    const text = renderSummary(summarise(entries), entries);
    expect(text).toContain('OBJECTS LOST: 2');
    expect(text).toContain('! conflict-409 — conflict-409 test: writer taints gone');
  });

  it('fails the run for a fault that did not recover, even with nothing lost', () => {
    const entries = [entry('apiserver-kill'), entry('etcd-kill', { recovered: false, convergeMs: null })];
    const summary = summarise(entries);
    expect(failures(summary)).toEqual(['1 fault(s) did not recover']);
    expect(renderSummary(summary, entries)).toContain('objects lost: 0; 1 NOT RECOVERED — the fault suite fails');
    expect(failures(summarise([entry('apiserver-kill')]))).toEqual([]);
  });

  it('prints why a class checked no objects, and fails the run when a class checked none without saying why', () => {
    const said = [entry('apiserver-kill'), entry('host-file', { objectsChecked: 0, convergeMs: null, noObjects: 'virtgate check, no cluster' })];
    expect(failures(summarise(said))).toEqual([]);
    expect(renderSummary(summarise(said), said)).toContain('0 objects in host-file: virtgate check, no cluster');
    const silent = [entry('apiserver-kill'), entry('etcd-kill', { objectsChecked: 0 })];
    expect(failures(summarise(silent))).toEqual(['no objects checked, and no reason why, in etcd-kill']);
    const text = renderSummary(summarise(silent), silent);
    expect(text).toContain('0 objects in etcd-kill: NO REASON GIVEN (its census is missing)');
    expect(text).toContain('objects lost: 0; every fault recovered — the fault suite fails: no objects checked, and no reason why, in etcd-kill');
  });
});
