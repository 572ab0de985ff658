import type { z } from 'zod';
import { isRecord } from './json.ts';

/**
 * Helpers for reading objects virtgate does not trust (anything from the API server: a node's
 * agent can write its own NodeValidation, and informers hand over whatever was stored).
 * They never throw.
 */

/** Runs a narrowing step; anything it throws (a hostile getter, a Proxy) becomes the fallback. */
export function safely<T>(narrow: () => T, fallback: T): T {
  try {
    return narrow();
  } catch {
    return fallback;
  }
}

export { isRecord } from './json.ts';

/** Keeps the string values of a map (labels, nodeSelector); drops everything else. */
export function stringMap(value: unknown, maxEntries = 1000): Record<string, string> {
  if (!isRecord(value)) return {};
  const entries = Object.entries(value)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .slice(0, maxEntries);
  // fromEntries defines own properties, so a key named "__proto__" stays a plain key.
  return Object.fromEntries(entries);
}

/** A string of at most `max` characters, else null. */
export function boundedString(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.length <= max ? value : null;
}

/** Shortens text for messages and evidence, which must stay small whatever an object holds. */
export function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The first zod issue as one short line: `status.tier: Invalid option ...`. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.map(String).join('.');
  return clip(`${where ? `${where}: ` : ''}${issue.message.split('\n')[0] ?? ''}`, 160);
}

/** The entries of a list that match a schema; malformed entries are dropped, a non-list is empty. */
export function listOf<T>(value: unknown, schema: z.ZodType<T>, max = 1000): T[] {
  if (!Array.isArray(value)) return [];
  const items: T[] = [];
  for (const item of value.slice(0, max)) {
    const parsed = schema.safeParse(item);
    if (parsed.success) items.push(parsed.data);
  }
  return items;
}
