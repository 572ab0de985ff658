/**
 * The chart README's values table, generated from values.yaml's `# --` comments (helm-docs'
 * convention, without its binary): a `# --` comment block directly above a key documents it, and
 * a documented map is one row holding its whole default.
 */
import { parse } from 'yaml';

export const CHART_README = 'charts/virtgate/README.md';
export const CHART_VALUES = 'charts/virtgate/values.yaml';
/** The README region the table fills (`<!-- settings:values -->` … `<!-- /settings:values -->`). */
export const VALUES_REGION = 'values';

export interface ValueRow {
  /** Dotted path in values.yaml, e.g. `agent.image.tag`. */
  key: string;
  type: string;
  /** The default as JSON. */
  default: string;
  description: string;
}

type Values = Record<string, unknown>;

function isMapping(value: unknown): value is Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(values: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (isMapping(node) ? node[key] : undefined), values);
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return isMapping(value) ? 'object' : 'string';
}

const KEY_LINE = /^(\s*)([A-Za-z0-9_.\/-]+):(\s|$)/;

/**
 * Every documented key, and every undocumented leaf (scalar, list or empty map) that no
 * documented ancestor already shows, in file order. Lines inside lists and block scalars are not
 * keys of values.yaml: a line counts only when its parent, in the parsed values, is a mapping
 * that holds it.
 */
export function valueRows(valuesText: string): ValueRow[] {
  const values = parse(valuesText) as unknown;
  const rows: ValueRow[] = [];
  const stack: Array<{ indent: number; key: string; documented: boolean }> = [];
  let pending: string[] | undefined;
  for (const line of valuesText.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') {
      pending = undefined; // a blank line ends a comment block: it documents nothing below
      continue;
    }
    if (trimmed.startsWith('#')) {
      const text = trimmed.replace(/^#\s?/, '');
      if (text.startsWith('--')) pending = [text.replace(/^--\s*/, '')];
      else pending?.push(text);
      continue;
    }
    const match = KEY_LINE.exec(line);
    const description = pending?.join(' ').replace(/\s+/g, ' ').trim();
    pending = undefined;
    if (!match || trimmed.startsWith('-')) continue;
    const indent = match[1]?.length ?? 0;
    const key = match[2] ?? '';
    while (stack.length > 0 && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop();
    const parent = valueAt(values, stack.map((entry) => entry.key));
    if (!isMapping(parent) || !(key in parent)) continue;
    const path = [...stack.map((entry) => entry.key), key];
    const value = parent[key];
    const shownAbove = stack.some((entry) => entry.documented);
    const documented = description !== undefined;
    const leaf = !isMapping(value) || Object.keys(value).length === 0;
    if (!shownAbove && (documented || leaf)) {
      rows.push({ key: path.join('.'), type: typeOf(value), default: JSON.stringify(value), description: description ?? '' });
    }
    stack.push({ indent, key, documented: documented || shownAbove });
  }
  return rows;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** The Markdown table of valueRows(). */
export function valuesMarkdown(valuesText: string): string {
  const rows = valueRows(valuesText).map((row) => `| \`${row.key}\` | ${row.type} | \`${cell(row.default)}\` | ${cell(row.description)} |`);
  return ['| key | type | default | description |', '|---|---|---|---|', ...rows].join('\n');
}
