import type { GateConfig } from '../../model/config.ts';
import type { VersionData } from '../../versions/schema.ts';
import { daysBetween, parseIsoDay } from '../days.ts';
import { type Finding, gateRule, type TupleInputs } from '../rule.ts';

/** tuple.data-fresh: version data older than dataMaxAgeDays on the evaluation day → warn. */
export function checkDataFresh(data: VersionData, config: Pick<GateConfig, 'dataMaxAgeDays'>, todayMs: number): Finding {
  const ageDays = daysBetween(parseIsoDay(data.updated), todayMs);
  const evidence = { updated: data.updated, ageDays, maxAgeDays: config.dataMaxAgeDays };
  if (ageDays > config.dataMaxAgeDays) {
    return {
      status: 'warn',
      message: `the version data is ${ageDays} days old (updated ${data.updated}, limit ${config.dataMaxAgeDays}): support windows and end-of-life dates may have moved; upgrade virtgate or replace the data file`,
      evidence,
    };
  }
  const when = ageDays < 0 ? 'after the evaluation day' : `${ageDays} day${ageDays === 1 ? '' : 's'} ago`;
  return { status: 'pass', message: `the version data was updated ${data.updated}, ${when}`, evidence };
}

/** The rules this file adds to the gate (registered in ../rules.ts). */
export const dataFreshRule = gateRule('tuple.data-fresh', ({ data, config, todayMs }: TupleInputs) => checkDataFresh(data, config, todayMs));
