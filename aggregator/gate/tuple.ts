import type { GateConfig } from '../model/config.ts';
import type { VersionData } from '../versions/schema.ts';
import { checkDataFresh } from './checks/data-fresh.ts';
import { checkCdiPaired, checkKubernetesEol, checkKubernetesSupported } from './checks/tuple.ts';
import { isoDay, utcDayOf } from './days.ts';
import { guarded } from './guard.ts';
import { exitCodeFor, worstStatus } from './status.ts';
import type { TupleResult, VersionTuple } from '../documents/gate.ts';

/**
 * The version checks alone (tuple.kubernetes-supported, tuple.kubernetes-eol, tuple.cdi-paired,
 * tuple.data-fresh): `virtgate tuple` offline, and the first part of the gate. Pure: the day comes
 * from `now` (its UTC calendar day).
 */
export function evaluateTuple(tuple: VersionTuple, data: VersionData, config: Pick<GateConfig, 'eolWarnDays' | 'dataMaxAgeDays'>, now: Date): TupleResult {
  if (Number.isNaN(now.getTime())) throw new TypeError('evaluateTuple: now must be a valid Date');
  const todayMs = utcDayOf(now);
  const checks = [
    guarded('tuple.kubernetes-supported', () => checkKubernetesSupported(tuple, data)),
    guarded('tuple.kubernetes-eol', () => checkKubernetesEol(tuple, data, config, todayMs)),
    guarded('tuple.cdi-paired', () => checkCdiPaired(tuple, data)),
    guarded('tuple.data-fresh', () => checkDataFresh(data, config, todayMs)),
  ];
  const result = worstStatus(checks.map((check) => check.status));
  return { result, exitCode: exitCodeFor(result), date: isoDay(now), tuple, dataUpdated: data.updated, checks };
}
