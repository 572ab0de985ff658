// Types for render.js, which the browser loads as it is (no build step); the unit tests import it.
export function statusClass(status: unknown): string;
export function formatDuration(seconds: number): string;
export function formatAge(seconds: unknown): string;
export function formatPercent(ratio: unknown): string;
export function evidenceLines(evidence: unknown, max?: number): string[];
export function freshness(input: {
  aggregator?: unknown;
  fetchedAt?: Date | null;
  fetchError?: string | null;
  now: Date;
  refreshMs: number;
}): { level: 'ok' | 'warn' | 'error'; text: string };
export function filterNodes<N extends { name: string; state: string; reason?: string; failingChecks?: Array<{ id: string; message: string }> }>(
  nodes: N[],
  filter: { text?: string; state?: string },
  limit: number,
): { shown: N[]; matching: number };
export function h(
  doc: unknown,
  tag: string,
  props?: { className?: string; text?: unknown; title?: unknown; attrs?: Record<string, string> },
  children?: Array<unknown>,
): unknown;
export function renderChecks(doc: unknown, checks: Array<{ id: string; status: string; message: string; evidence: unknown }>): unknown;
export function renderNodeRows(doc: unknown, nodes: unknown[]): unknown;
export function hardwareLine(doc: unknown, inventory: unknown): unknown;
