/** The fault suite's closing summary: pure, from the ledger's entries and the table of classes. */
import { FAULT_CLASSES, type FaultClass, type FaultGroup } from './fault-classes.ts';
import type { LedgerEntry } from './ledger.ts';

export interface KindTotals {
  kind: string;
  /** Undefined for a kind the table of classes does not know (which fails the run). */
  group: FaultGroup | undefined;
  /** The class's minimum where its file ran; 0 where it did not (nothing required). Held against `injected` for a cluster fault, `inputsTried` for an input case. */
  minimum: number;
  injected: number;
  /** Inputs an input case fed virtgate (argument rows, fuzz runs, objects, files): never counted as objects checked. */
  inputsTried: number;
  recovered: number;
  entries: number;
  longestConvergeMs: number | null;
  medianConvergeMs: number | null;
  /** The largest of the class's bounds (each recovery is held to its own fault's bound). */
  boundMs: number | null;
  /** Each distinct bound formula of the class. */
  formulas: string[];
  /** Recoveries slower than their fault's bound: `test: took > bound`. */
  overBound: string[];
  /** Cluster faults of this class that measured no recovery or gave no bound. */
  untimed: string[];
  /** Rows that break the ledger's shape: a cluster row that is not one injection with one recovery, an input row that counts injections. */
  misshapen: string[];
  objectsChecked: number;
  objectsLost: number;
  /** Why the class cannot touch any object, when one of its faults said so. */
  noObjects?: string;
}

export type Totals = Pick<KindTotals, 'injected' | 'inputsTried' | 'recovered' | 'entries' | 'longestConvergeMs' | 'objectsChecked' | 'objectsLost'>;

export interface FaultSummary {
  kinds: KindTotals[];
  groups: Record<FaultGroup, Totals>;
  total: Totals;
}

export interface SummaryOptions {
  /** The table of classes (default: the suite's own). */
  classes?: Readonly<Record<string, FaultClass>>;
  /** Test files (from the repository root) that ran: their classes' minimums apply. */
  ranFiles?: readonly string[];
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? null) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

function emptyTotals(): Totals {
  return { injected: 0, inputsTried: 0, recovered: 0, entries: 0, longestConvergeMs: null, objectsChecked: 0, objectsLost: 0 };
}

function add(sum: Totals, kind: Totals): Totals {
  return {
    injected: sum.injected + kind.injected,
    inputsTried: sum.inputsTried + kind.inputsTried,
    recovered: sum.recovered + kind.recovered,
    entries: sum.entries + kind.entries,
    longestConvergeMs: kind.longestConvergeMs === null ? sum.longestConvergeMs : Math.max(sum.longestConvergeMs ?? 0, kind.longestConvergeMs),
    objectsChecked: sum.objectsChecked + kind.objectsChecked,
    objectsLost: sum.objectsLost + kind.objectsLost,
  };
}

export function summarise(entries: readonly LedgerEntry[], options: SummaryOptions = {}): FaultSummary {
  const classes = options.classes ?? FAULT_CLASSES;
  const ran = new Set(options.ranFiles ?? []);
  const byKind = new Map<string, KindTotals & { recoveries: number[] }>();
  const totalsOf = (kind: string) => {
    let totals = byKind.get(kind);
    if (!totals) {
      const known = classes[kind];
      totals = {
        kind,
        group: known?.group,
        minimum: known && ran.has(known.file) ? known.minimum : 0,
        injected: 0,
        inputsTried: 0,
        recovered: 0,
        entries: 0,
        longestConvergeMs: null,
        medianConvergeMs: null,
        boundMs: null,
        formulas: [],
        overBound: [],
        untimed: [],
        misshapen: [],
        objectsChecked: 0,
        objectsLost: 0,
        recoveries: [],
      };
      byKind.set(kind, totals);
    }
    return totals;
  };
  // Every class whose file ran has a row, so an empty one shows (and fails).
  for (const [kind, known] of Object.entries(classes)) if (ran.has(known.file)) totalsOf(kind);
  for (const entry of entries) {
    const totals = totalsOf(entry.kind);
    totals.injected += entry.injected;
    totals.inputsTried += entry.inputsTried ?? 0;
    totals.recovered += entry.recovered ? 1 : 0;
    totals.entries += 1;
    const recoveries = entry.recoveriesMs ?? (entry.convergeMs === null ? [] : [entry.convergeMs]);
    totals.recoveries.push(...recoveries);
    if (entry.convergeMs !== null) totals.longestConvergeMs = Math.max(totals.longestConvergeMs ?? 0, entry.convergeMs);
    if (entry.bound) {
      const { ms, formula } = entry.bound;
      totals.boundMs = Math.max(totals.boundMs ?? 0, ms);
      if (!totals.formulas.includes(formula)) totals.formulas.push(formula);
      for (const took of recoveries) if (took > ms) totals.overBound.push(`${entry.test}: ${seconds(took)} > ${seconds(ms)}`);
    }
    if (totals.group === 'cluster' && (!entry.bound || recoveries.length === 0)) {
      totals.untimed.push(`${entry.test} (${!entry.bound ? 'no bound' : 'no recovery measured'})`);
    }
    // One injection, one recovery: a row that sums several cannot show which one was slow or
    // which one a shrunken test stopped making.
    if (totals.group === 'cluster' && (entry.injected !== 1 || recoveries.length > 1 || (entry.inputsTried ?? 0) > 0)) {
      totals.misshapen.push(`${entry.test} (${entry.injected} injected, ${recoveries.length} recoveries${entry.inputsTried ? `, ${entry.inputsTried} inputs` : ''} in one row)`);
    }
    if (totals.group === 'input' && entry.injected > 0) totals.misshapen.push(`${entry.test} (${entry.injected} injected: an input case counts inputs tried)`);
    totals.objectsChecked += entry.objectsChecked;
    totals.objectsLost += entry.objectsLost;
    if (entry.noObjects) totals.noObjects = entry.noObjects;
  }
  const kinds = [...byKind.values()]
    .map(({ recoveries, ...totals }) => ({ ...totals, medianConvergeMs: median(recoveries) }))
    .sort((a, b) => (a.group ?? 'z').localeCompare(b.group ?? 'z') || a.kind.localeCompare(b.kind));
  const groups = { cluster: emptyTotals(), input: emptyTotals() };
  for (const kind of kinds) if (kind.group) groups[kind.group] = add(groups[kind.group], kind);
  return { kinds, groups, total: kinds.reduce<Totals>(add, emptyTotals()) };
}

/** Why the fault suite fails, from its summary. Empty: it passes. */
export function failures(summary: FaultSummary): string[] {
  const reasons: string[] = [];
  if (summary.total.objectsLost > 0) reasons.push(`${summary.total.objectsLost} object(s) lost`);
  const unrecovered = summary.total.entries - summary.total.recovered;
  if (unrecovered > 0) reasons.push(`${unrecovered} fault(s) did not recover`);
  // A class that checked nothing must say why it could not touch anything; else its census is missing.
  const silent = summary.kinds.filter((kind) => kind.entries > 0 && kind.objectsChecked === 0 && !kind.noObjects).map((kind) => kind.kind);
  if (silent.length > 0) reasons.push(`no objects checked, and no reason why, in ${silent.join(', ')}`);
  const unknown = summary.kinds.filter((kind) => !kind.group).map((kind) => kind.kind);
  if (unknown.length > 0) reasons.push(`unknown fault class ${unknown.join(', ')} (add it to test/faults/fault-classes.ts)`);
  for (const kind of summary.kinds) {
    const counted = kind.group === 'input' ? kind.inputsTried : kind.injected;
    if (counted < kind.minimum) reasons.push(`${kind.kind}: ${counted} ${kind.group === 'input' ? 'inputs tried' : 'injected'}, fewer than its minimum ${kind.minimum}`);
    if (kind.misshapen.length > 0) reasons.push(`${kind.kind}: ${kind.group === 'input' ? 'rows counting injections' : 'rows not one injection with one recovery'} in ${kind.misshapen.join(', ')}`);
    if (kind.untimed.length > 0) reasons.push(`${kind.kind}: recovery not timed against a bound in ${kind.untimed.join(', ')}`);
    if (kind.overBound.length > 0) reasons.push(`${kind.kind}: recovered slower than its bound in ${kind.overBound.join(', ')}`);
  }
  return reasons;
}

/** Fixed-width tables, cluster faults apart from input cases, then the bounds, then what each test noted. */
export function renderSummary(summary: FaultSummary, entries: readonly LedgerEntry[] = []): string {
  // The count column: injections of a cluster fault (one a row), inputs tried by an input case.
  const header = (count: string) => ['fault', count, 'minimum', 'recovered', 'recovery median', 'recovery max', 'bound', 'objects checked', 'objects lost'];
  const row = (name: string, totals: Totals & Partial<KindTotals>, group: FaultGroup | undefined) => [
    name,
    String(group === 'input' ? totals.inputsTried : group === 'cluster' ? totals.injected : totals.injected + totals.inputsTried),
    totals.minimum === undefined ? '' : String(totals.minimum),
    `${totals.recovered}/${totals.entries}`,
    totals.medianConvergeMs === undefined ? '' : seconds(totals.medianConvergeMs),
    seconds(totals.longestConvergeMs),
    totals.boundMs === undefined ? '' : seconds(totals.boundMs),
    String(totals.objectsChecked),
    String(totals.objectsLost),
  ];
  const sections: Array<{ title: string; group: FaultGroup | undefined; header: string[]; kinds: KindTotals[]; totals: Totals | undefined }> = [
    { title: 'cluster faults (a component killed, cut off, slowed, conflicted, corrupted): one row of the ledger per injection', group: 'cluster' as const, header: header('injected'), kinds: summary.kinds.filter((kind) => kind.group === 'cluster'), totals: summary.groups.cluster },
    { title: 'input cases (bad flags, fuzz inputs, hostile objects, broken files)', group: 'input' as const, header: header('inputs tried'), kinds: summary.kinds.filter((kind) => kind.group === 'input'), totals: summary.groups.input },
    { title: 'UNKNOWN classes', group: undefined, header: header('injected'), kinds: summary.kinds.filter((kind) => !kind.group), totals: undefined },
  ].filter((section) => section.kinds.length > 0);
  const rowsOf = (section: (typeof sections)[number]) => [...section.kinds.map((kind) => row(kind.kind, kind, section.group)), ...(section.totals ? [row('total', section.totals, section.group)] : [])];
  const all = sections.flatMap((section) => [section.header, ...rowsOf(section)]);
  const widths = header('').map((_, column) => Math.max(...all.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const tables = sections.map((section) => {
    const rows = rowsOf(section).map(line);
    return [section.title, '', line(section.header), rule, ...(section.totals ? [...rows.slice(0, -1), rule, ...rows.slice(-1)] : rows)].join('\n');
  });
  const failed = failures(summary);
  const unrecovered = summary.total.entries - summary.total.recovered;
  const verdict =
    failed.length === 0
      ? `objects lost: 0; every fault recovered within its bound; every class at its minimum`
      : `${summary.total.objectsLost > 0 ? `OBJECTS LOST: ${summary.total.objectsLost}` : 'objects lost: 0'}; ${unrecovered > 0 ? `${unrecovered} NOT RECOVERED` : 'every fault recovered'} — the fault suite fails: ${failed.join('; ')}`;
  const bounds = summary.kinds.flatMap((kind) => kind.formulas.map((formula) => `  bound of ${kind.kind}: ${formula}`));
  const zeroes = summary.kinds
    .filter((kind) => kind.entries > 0 && kind.objectsChecked === 0)
    .map((kind) => `  0 objects in ${kind.kind}: ${kind.noObjects ?? 'NO REASON GIVEN (its census is missing)'}`);
  const notes = entries
    .filter((entry) => entry.detail || !entry.recovered)
    .map((entry) => `  ${entry.recovered ? ' ' : '!'} ${entry.kind} — ${entry.test}${entry.detail ? `: ${entry.detail}` : ''}`);
  const block = (lines: string[]) => (lines.length > 0 ? `\n${lines.join('\n')}\n` : '');
  return `\nvirtgate fault suite summary\n\n${tables.join('\n\n')}\n${block(bounds)}${block(zeroes)}\n${verdict}\n${block(notes)}`;
}
