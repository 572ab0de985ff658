/** The closing summary's arithmetic: what the run reports, and that a loss, a short class or a slow recovery shows. */
import { describe, expect, it } from 'vitest';
import type { FaultClass } from './fault-classes.ts';
import type { LedgerEntry } from './ledger.ts';
import { failures, median, renderSummary, summarise } from './summary.ts';

const bound = { ms: 20_000, formula: 'interval 10 s × (1 + jitter 0) + 2 × agent request timeout 5 s = 20 s' };

const entry = (kind: string, overrides: Partial<LedgerEntry> = {}): LedgerEntry => ({
  kind,
  test: `${kind} test`,
  injected: 1,
  recovered: true,
  convergeMs: 1000,
  recoveriesMs: [1000],
  bound,
  objectsChecked: 6,
  objectsLost: 0,
  ...overrides,
});

const CLASSES: Record<string, FaultClass> = {
  'apiserver-kill': { group: 'cluster', minimum: 2, file: 'restarts.test.ts' },
  'etcd-kill': { group: 'cluster', minimum: 1, file: 'restarts.test.ts' },
  'conflict-409': { group: 'cluster', minimum: 1, file: 'conflicts.test.ts' },
  'bad-config': { group: 'input', minimum: 51, file: 'bad-config.test.ts' },
  'host-file': { group: 'input', minimum: 1, file: 'host-files.test.ts' },
};
const ALL = { classes: CLASSES, ranFiles: ['restarts.test.ts', 'conflicts.test.ts', 'bad-config.test.ts', 'host-files.test.ts'] };
const input = (kind: string, overrides: Partial<LedgerEntry> = {}): LedgerEntry => {
  const { bound: _, ...unbounded } = entry(kind, { injected: 0, inputsTried: 1, convergeMs: null, recoveriesMs: [], objectsChecked: 0, noObjects: 'no cluster', ...overrides });
  return unbounded;
};

describe('fault summary', () => {
  it('totals cluster faults apart from input cases: injections and inputs tried against minimums, recovery median and max, bounds', () => {
    const entries = [
      entry('apiserver-kill', { convergeMs: 6100, recoveriesMs: [6100] }),
      entry('apiserver-kill', { convergeMs: 2400, recoveriesMs: [2400], objectsChecked: 9 }),
      entry('apiserver-kill', { convergeMs: 1200, recoveriesMs: [1200], objectsChecked: 9 }),
      entry('etcd-kill'),
      entry('conflict-409'),
      input('bad-config', { inputsTried: 51 }),
      input('host-file'),
    ];
    const summary = summarise(entries, ALL);
    expect(summary.kinds.map((kind) => [kind.kind, kind.group, kind.injected, kind.inputsTried, kind.minimum, kind.medianConvergeMs, kind.longestConvergeMs, kind.boundMs])).toEqual([
      ['apiserver-kill', 'cluster', 3, 0, 2, 2400, 6100, 20_000],
      ['conflict-409', 'cluster', 1, 0, 1, 1000, 1000, 20_000],
      ['etcd-kill', 'cluster', 1, 0, 1, 1000, 1000, 20_000],
      ['bad-config', 'input', 0, 51, 51, null, null, null],
      ['host-file', 'input', 0, 1, 1, null, null, null],
    ]);
    expect(summary.groups.cluster).toMatchObject({ injected: 5, inputsTried: 0, entries: 5, objectsChecked: 36 });
    expect(summary.groups.input).toMatchObject({ injected: 0, inputsTried: 52, entries: 2, objectsChecked: 0 });
    expect(failures(summary)).toEqual([]);
    const text = renderSummary(summary, entries);
    expect(text.indexOf('cluster faults')).toBeLessThan(text.indexOf('input cases'));
    // Each section names its count: injections of a fault, inputs of a case; inputs are never objects.
    expect(text).toMatch(/\nfault\s+injected\s+minimum\s+recovered/);
    expect(text).toMatch(/\nfault\s+inputs tried\s+minimum\s+recovered/);
    expect(text).toMatch(/apiserver-kill\s+3\s+2\s+3\/3\s+2\.4 s\s+6\.1 s\s+20\.0 s\s+24\s+0/);
    expect(text).toMatch(/bad-config\s+51\s+51\s+1\/1\s+—\s+—\s+—\s+0\s+0/);
    expect(text).toContain(`bound of apiserver-kill: ${bound.formula}`);
    expect(text).toContain('objects lost: 0; every fault recovered within its bound; every class at its minimum');
  });

  it('the median of an even count is the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('fails the run for a class short of its minimum, and for a class whose file ran but recorded nothing', () => {
    const entries = [entry('apiserver-kill'), entry('etcd-kill'), entry('conflict-409'), input('bad-config', { inputsTried: 50 })];
    const reasons = failures(summarise(entries, ALL));
    expect(reasons).toEqual(['apiserver-kill: 1 injected, fewer than its minimum 2', 'bad-config: 50 inputs tried, fewer than its minimum 51', 'host-file: 0 inputs tried, fewer than its minimum 1']);
    expect(renderSummary(summarise(entries, ALL), entries)).toMatch(/host-file\s+0\s+1\s+0\/0/);
    // A file that did not run requires nothing of its classes.
    expect(failures(summarise([entry('conflict-409')], { classes: CLASSES, ranFiles: ['conflicts.test.ts'] }))).toEqual([]);
  });

  it('fails the run for a recovery slower than its bound, and for a cluster fault without a bound or a measured recovery', () => {
    const slow = [entry('conflict-409', { convergeMs: 3000, recoveriesMs: [3000] }), entry('conflict-409', { convergeMs: 25_000, recoveriesMs: [25_000] })];
    const options = { classes: CLASSES, ranFiles: ['conflicts.test.ts'] };
    expect(failures(summarise(slow, options))).toEqual(['conflict-409: recovered slower than its bound in conflict-409 test: 25.0 s > 20.0 s']);
    const { bound: _, ...unbounded } = entry('conflict-409');
    expect(failures(summarise([unbounded], options))).toEqual(['conflict-409: recovery not timed against a bound in conflict-409 test (no bound)']);
    expect(failures(summarise([entry('conflict-409', { convergeMs: null, recoveriesMs: [] })], options))).toEqual([
      'conflict-409: recovery not timed against a bound in conflict-409 test (no recovery measured)',
    ]);
  });

  it('fails the run for a cluster row that is not one injection with one recovery, and for an input row that counts injections', () => {
    const options = { classes: CLASSES, ranFiles: ['conflicts.test.ts', 'bad-config.test.ts'] };
    const summed = [entry('conflict-409', { injected: 3, recoveriesMs: [1000] }), input('bad-config', { inputsTried: 51 })];
    expect(failures(summarise(summed, options))).toEqual(['conflict-409: rows not one injection with one recovery in conflict-409 test (3 injected, 1 recoveries in one row)']);
    const twice = [entry('conflict-409', { recoveriesMs: [1000, 1200] }), input('bad-config', { inputsTried: 51 })];
    expect(failures(summarise(twice, options))).toEqual(['conflict-409: rows not one injection with one recovery in conflict-409 test (1 injected, 2 recoveries in one row)']);
    const injectedInputs = [entry('conflict-409'), input('bad-config', { injected: 51, inputsTried: 0 })];
    expect(failures(summarise(injectedInputs, options))).toEqual([
      'bad-config: 0 inputs tried, fewer than its minimum 51',
      'bad-config: rows counting injections in bad-config test (51 injected: an input case counts inputs tried)',
    ]);
  });

  it('fails the run for a kind the table of classes does not know', () => {
    expect(failures(summarise([entry('mystery')], { classes: CLASSES, ranFiles: [] }))).toEqual(['unknown fault class mystery (add it to test/faults/fault-classes.ts)']);
  });

  it('says loudly when an object was lost, and lists the fault that did not recover', () => {
    const entries = [entry('conflict-409', { objectsLost: 2, recovered: false, detail: 'writer taints gone' })];
    const text = renderSummary(summarise(entries, { classes: CLASSES }), entries);
    expect(text).toContain('OBJECTS LOST: 2');
    expect(text).toContain('! conflict-409 — conflict-409 test: writer taints gone');
  });

  it('fails the run for a fault that did not recover, even with nothing lost', () => {
    const entries = [entry('apiserver-kill'), entry('etcd-kill', { recovered: false })];
    const summary = summarise(entries, { classes: CLASSES });
    expect(failures(summary)).toEqual(['1 fault(s) did not recover']);
    expect(renderSummary(summary, entries)).toContain('objects lost: 0; 1 NOT RECOVERED — the fault suite fails');
  });

  it('prints why a class checked no objects, and fails the run when a class checked none without saying why', () => {
    const said = [entry('apiserver-kill'), input('host-file', { noObjects: 'virtgate check, no cluster' })];
    expect(failures(summarise(said, { classes: CLASSES }))).toEqual([]);
    expect(renderSummary(summarise(said, { classes: CLASSES }), said)).toContain('0 objects in host-file: virtgate check, no cluster');
    const silent = [entry('apiserver-kill'), entry('etcd-kill', { objectsChecked: 0 })];
    expect(failures(summarise(silent, { classes: CLASSES }))).toEqual(['no objects checked, and no reason why, in etcd-kill']);
    const text = renderSummary(summarise(silent, { classes: CLASSES }), silent);
    expect(text).toContain('0 objects in etcd-kill: NO REASON GIVEN (its census is missing)');
    expect(text).toContain('objects lost: 0; every fault recovered — the fault suite fails: no objects checked, and no reason why, in etcd-kill');
  });
});
