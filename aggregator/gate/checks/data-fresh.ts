import type { GateConfig } from '../../model/config.ts';
import type { VersionData } from '../../versions/schema.ts';
import { daysBetween, parseIsoDay } from '../days.ts';
import type { GateCheck } from '../../documents/gate.ts';

/** tuple.data-fresh: version data older than dataMaxAgeDays on the evaluation day → warn. */
export function checkDataFresh(data: VersionData, config: Pick<GateConfig, 'dataMaxAgeDays'>, todayMs: number): GateCheck<'tuple.data-fresh'> {
  const id = 'tuple.data-fresh';
  const ageDays = daysBetween(parseIsoDay(data.updated), todayMs);
  const evidence = { updated: data.updated, ageDays, maxAgeDays: config.dataMaxAgeDays };
  if (ageDays > config.dataMaxAgeDays) {
    return {
      id,
      status: 'warn',
      message: `the version data is ${ageDays} days old (updated ${data.updated}, limit ${config.dataMaxAgeDays}): support windows and end-of-life dates may have moved; upgrade virtgate or replace the data file`,
      evidence,
    };
  }
  const when = ageDays < 0 ? 'after the evaluation day' : `${ageDays} day${ageDays === 1 ? '' : 's'} ago`;
  return { id, status: 'pass', message: `the version data was updated ${data.updated}, ${when}`, evidence };
}
