/** The fault suite's closing summary: pure, from the ledger's entries. */
import type { LedgerEntry } from './ledger.ts';

export interface KindTotals {
  kind: string;
  injected: number;
  recovered: number;
  entries: number;
  longestConvergeMs: number | null;
  objectsChecked: number;
  objectsLost: number;
  /** Why the class cannot touch any object, when one of its faults said so. */
  noObjects?: string;
}

export interface FaultSummary {
  kinds: KindTotals[];
  total: Omit<KindTotals, 'kind' | 'noObjects'>;
}

export function summarise(entries: readonly LedgerEntry[]): FaultSummary {
  const byKind = new Map<string, KindTotals>();
  for (const entry of entries) {
    const totals = byKind.get(entry.kind) ?? { kind: entry.kind, injected: 0, recovered: 0, entries: 0, longestConvergeMs: null, objectsChecked: 0, objectsLost: 0 };
    totals.injected += entry.injected;
    totals.recovered += entry.recovered ? 1 : 0;
    totals.entries += 1;
    if (entry.convergeMs !== null) totals.longestConvergeMs = Math.max(totals.longestConvergeMs ?? 0, entry.convergeMs);
    totals.objectsChecked += entry.objectsChecked;
    totals.objectsLost += entry.objectsLost;
    if (entry.noObjects) totals.noObjects = entry.noObjects;
    byKind.set(entry.kind, totals);
  }
  const kinds = [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
  const total = kinds.reduce<Omit<KindTotals, 'kind' | 'noObjects'>>(
    (sum, kind) => ({
      injected: sum.injected + kind.injected,
      recovered: sum.recovered + kind.recovered,
      entries: sum.entries + kind.entries,
      longestConvergeMs: kind.longestConvergeMs === null ? sum.longestConvergeMs : Math.max(sum.longestConvergeMs ?? 0, kind.longestConvergeMs),
      objectsChecked: sum.objectsChecked + kind.objectsChecked,
      objectsLost: sum.objectsLost + kind.objectsLost,
    }),
    { injected: 0, recovered: 0, entries: 0, longestConvergeMs: null, objectsChecked: 0, objectsLost: 0 },
  );
  return { kinds, total };
}

/** Why the fault suite fails, from its summary: objects lost, or faults that never recovered. Empty: it passes. */
export function failures(summary: FaultSummary): string[] {
  const reasons: string[] = [];
  if (summary.total.objectsLost > 0) reasons.push(`${summary.total.objectsLost} object(s) lost`);
  const unrecovered = summary.total.entries - summary.total.recovered;
  if (unrecovered > 0) reasons.push(`${unrecovered} fault(s) did not recover`);
  // A class that checked nothing must say why it could not touch anything; else its census is missing.
  const silent = summary.kinds.filter((kind) => kind.objectsChecked === 0 && !kind.noObjects).map((kind) => kind.kind);
  if (silent.length > 0) reasons.push(`no objects checked, and no reason why, in ${silent.join(', ')}`);
  return reasons;
}

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

/** A fixed-width table: one row per kind of fault, then the totals, then what each test noted. */
export function renderSummary(summary: FaultSummary, entries: readonly LedgerEntry[] = []): string {
  const header = ['fault', 'injected', 'recovered', 'longest converge', 'objects checked', 'objects lost'];
  const row = (name: string, totals: Omit<KindTotals, 'kind' | 'noObjects'>) => [
    name,
    String(totals.injected),
    `${totals.recovered}/${totals.entries}`,
    seconds(totals.longestConvergeMs),
    String(totals.objectsChecked),
    String(totals.objectsLost),
  ];
  const rows = [header, ...summary.kinds.map((kind) => row(kind.kind, kind)), row('total', summary.total)];
  const widths = header.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const out = [line(header), rule, ...rows.slice(1, -1).map(line), rule, line(rows[rows.length - 1] ?? [])];
  const failed = failures(summary);
  const unrecovered = summary.total.entries - summary.total.recovered;
  const verdict =
    failed.length === 0
      ? `objects lost: 0; every fault recovered`
      : `${summary.total.objectsLost > 0 ? `OBJECTS LOST: ${summary.total.objectsLost}` : 'objects lost: 0'}; ${unrecovered > 0 ? `${unrecovered} NOT RECOVERED` : 'every fault recovered'} — the fault suite fails: ${failed.join('; ')}`;
  const zeroes = summary.kinds
    .filter((kind) => kind.objectsChecked === 0)
    .map((kind) => `  0 objects in ${kind.kind}: ${kind.noObjects ?? 'NO REASON GIVEN (its census is missing)'}`);
  const notes = entries
    .filter((entry) => entry.detail || !entry.recovered)
    .map((entry) => `  ${entry.recovered ? ' ' : '!'} ${entry.kind} — ${entry.test}${entry.detail ? `: ${entry.detail}` : ''}`);
  return `\nvirtgate fault suite summary\n\n${out.join('\n')}\n${zeroes.length > 0 ? `\n${zeroes.join('\n')}\n` : ''}\n${verdict}\n${notes.length > 0 ? `\n${notes.join('\n')}\n` : ''}`;
}
