import type { GateConfig } from '../model/config.ts';
import type { VersionData } from '../versions/schema.ts';
import { isoDay, utcDayOf } from './days.ts';
import { applyRule } from './guard.ts';
import { TUPLE_RULES } from './rules.ts';
import { exitCodeFor, worstStatus } from './status.ts';
import type { TupleResult, VersionTuple } from '../documents/gate.ts';

/**
 * The version checks alone (TUPLE_RULES in rules.ts): `virtgate tuple` offline, and the first part of the gate. Pure: the day comes
 * from `now` (its UTC calendar day).
 */
export function evaluateTuple(tuple: VersionTuple, data: VersionData, config: Pick<GateConfig, 'eolWarnDays' | 'dataMaxAgeDays'>, now: Date): TupleResult {
  if (Number.isNaN(now.getTime())) throw new TypeError('evaluateTuple: now must be a valid Date');
  const todayMs = utcDayOf(now);
  const inputs = { tuple, data, config, todayMs };
  const checks = TUPLE_RULES.map((rule) => applyRule(rule, inputs));
  const result = worstStatus(checks.map((check) => check.status));
  return { result, exitCode: exitCodeFor(result), date: isoDay(now), tuple, dataUpdated: data.updated, checks };
}
