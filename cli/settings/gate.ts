import { z } from 'zod';
import { AGGREGATOR_SETTINGS } from '../../aggregator/config.ts';
import { clientKubeconfigSetting, contextSetting, jsonSetting } from '../../core/settings/common.ts';
import { instant } from '../../core/settings/parsers.ts';
import { type ConfigOf, defineSettings, pick, setting } from '../../core/settings/table.ts';

/** `virtgate gate` settings: the aggregator's gate entries (the same defaults), none of the server's. */
export const GATE_SETTINGS = {
  kubeconfig: clientKubeconfigSetting,
  context: contextSetting,
  json: jsonSetting('print the gate report as JSON'),
  junit: setting({ flag: '--junit <file>', help: 'also write the gate report to this file as JUnit XML, for CI systems', schema: z.string().min(1).optional() }),
  ...pick(AGGREGATOR_SETTINGS, ['versionsFile', 'prefix', 'staleAfterSeconds', 'minReady', 'eolWarnDays', 'dataMaxAgeDays', 'requestTimeoutSeconds', 'calendarDate']),
  now: setting({ flag: '--now <time>', help: 'testing only: evaluate as of this time', schema: z.date().optional(), parse: instant, hidden: true }),
};

export const gateSettings = defineSettings(GATE_SETTINGS);

export type GateSettings = ConfigOf<typeof GATE_SETTINGS>;
