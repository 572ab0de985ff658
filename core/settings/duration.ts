import ms, { type StringValue } from 'ms';
import { z } from 'zod';
import { durationSeconds } from './parsers.ts';
import { type Setting, setting } from './table.ts';

export interface DurationSettingEntry {
  /** commander syntax: `--interval <duration>`. */
  readonly flag: string;
  readonly help: string;
  /** The default as a person writes it (`5m`, `30s`); the value in seconds is derived. */
  readonly default: StringValue;
  readonly min?: StringValue;
  readonly max?: StringValue;
  /** The message when below `min`; defaults to `must be at least <min>`. */
  readonly minMessage?: string;
  readonly env?: string;
  readonly chart?: string | false;
}

/** Seconds in a duration text; throws on text `ms` does not read, so a typo in a table fails at load. */
export function secondsOf(text: StringValue): number {
  const millis = ms(text);
  if (!Number.isFinite(millis)) throw new Error(`not a duration: ${text}`);
  return millis / 1000;
}

/**
 * A duration setting written once: its default as text (`5m`), so help, the chart and the docs
 * show the text and the program gets seconds, and the two cannot disagree.
 */
export function durationSetting(entry: DurationSettingEntry): Setting<z.ZodNumber> & { readonly default: number; readonly defaultText: string } {
  let schema = z.number().positive();
  if (entry.min !== undefined) schema = schema.min(secondsOf(entry.min), entry.minMessage ?? `must be at least ${secondsOf(entry.min)} s`);
  if (entry.max !== undefined) schema = schema.max(secondsOf(entry.max), `must be at most ${secondsOf(entry.max)} s`);
  const result = setting({
    flag: entry.flag,
    help: entry.help,
    schema,
    parse: durationSeconds,
    default: secondsOf(entry.default),
    defaultText: entry.default,
    duration: { ...(entry.min !== undefined ? { min: entry.min } : {}), ...(entry.max !== undefined ? { max: entry.max } : {}) },
    ...(entry.env !== undefined ? { env: entry.env } : {}),
    ...(entry.chart !== undefined ? { chart: entry.chart } : {}),
  });
  return result as typeof result & { readonly defaultText: string };
}
