import ms, { type StringValue } from 'ms';
import semverCoerce from 'semver/functions/coerce.js';

/** Parsers of setting text: each rejects a bad value with a message that says what is expected. */
export function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error('expected a positive number.');
  return number;
}

export function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) throw new Error('expected a port, 0-65535.');
  return number;
}

/** A kernel or Kubernetes style major.minor such as `4.18`. */
export function majorMinor(value: string): string {
  if (!/^\d+\.\d+$/.test(value) || !semverCoerce(value)) throw new Error('expected MAJOR.MINOR, for example 4.18.');
  return value;
}

/** A duration in seconds: `300`, `300s`, `5m`, `1h` (the `ms` package's units). */
export function durationSeconds(value: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : ms(value as StringValue) / 1000;
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error('expected a duration such as 30s, 5m or 1h.');
  return seconds;
}

/** A share between 0 and 1, as `0.5` or `50%`. */
export function share(value: string): number {
  const number = value.endsWith('%') ? Number(value.slice(0, -1)) / 100 : Number(value);
  if (!Number.isFinite(number) || number <= 0 || number > 1) throw new Error('expected a share in (0, 1], e.g. 0.5 or 50%.');
  return number;
}

/** A calendar day, YYYY-MM-DD, as midnight UTC; rejects days that do not exist (2026-02-30). */
export function day(value: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new Error('expected a date YYYY-MM-DD.');
  }
  return date;
}

/** An ISO 8601 instant, for evaluating as of another time (tests). */
export function instant(value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(date.getTime())) throw new Error('expected an ISO 8601 time such as 2026-12-02T12:00:00Z.');
  return date;
}
