import { DEFAULT_PREFIX } from '../../core/kube/names.ts';
import { secondsOf } from '../../core/settings/duration.ts';

/** The one default of how old a report may get before its node counts as unknown. */
export const DEFAULT_STALE_AFTER = '30m' as const;

/** The gate's knobs (the chart and CLI flags set them). Trusted: it comes from the operator. */
export interface GateConfig {
  /** nodes.min-ready fails below this many ready nodes (live migration needs two). */
  minReady: number;
  /** A report whose heartbeat is older than this is stale: its node is `unknown`. */
  staleAfterSeconds: number;
  /** tuple.data-fresh warns when the version data's `updated` day is older than this. */
  dataMaxAgeDays: number;
  /** tuple.kubernetes-eol warns this many days before end of life. */
  eolWarnDays: number;
  /** The label prefix the agents use (core/kube/names.ts). */
  prefix: string;
  /**
   * Judge the version calendar (support windows, end of life, data age) as of this UTC day
   * (YYYY-MM-DD) instead of the evaluation time: to plan an upgrade, and so tests do not depend
   * on today's date. Report ages always use the evaluation time.
   */
  calendarDate?: string;
}

export const DEFAULT_GATE_CONFIG: GateConfig = {
  minReady: 2,
  staleAfterSeconds: secondsOf(DEFAULT_STALE_AFTER),
  dataMaxAgeDays: 180,
  eolWarnDays: 90,
  prefix: DEFAULT_PREFIX,
};
