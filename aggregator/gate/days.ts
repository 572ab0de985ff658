/** Calendar-day arithmetic in UTC: EOL dates and the data date are days, not instants. */
const DAY_MS = 86_400_000;

/** Midnight UTC of an instant's day, in epoch milliseconds. */
export function utcDayOf(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** YYYY-MM-DD (already validated by the data schema) as midnight UTC. */
export function parseIsoDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** Whole days from one day to another (negative when `to` is earlier). */
export function daysBetween(fromDayMs: number, toDayMs: number): number {
  return Math.round((toDayMs - fromDayMs) / DAY_MS);
}

export function isoDay(date: Date): string {
  return new Date(utcDayOf(date)).toISOString().slice(0, 10);
}
