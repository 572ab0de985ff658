import { clip } from '../../core/untrusted.ts';

/** Evidence and messages stay small whatever the cluster holds: lists are capped, names clipped. */
export const MAX_LISTED = 10;

/** The first MAX_LISTED items, clipped. */
export function firstFew(names: readonly string[], max = MAX_LISTED): string[] {
  return names.slice(0, max).map((name) => clip(name, 100));
}

/** "a, b, c" or "a, b, c and 7 more", for messages. */
export function nameList(names: readonly string[], max = 5): string {
  const shown = firstFew(names, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
