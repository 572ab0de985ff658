import { z } from 'zod';
import {
  bindAddressSetting,
  CLUSTER_REQUEST_TIMEOUT,
  inClusterKubeconfigSetting,
  logLevelSetting,
  portSetting,
  prefixSetting,
} from '../core/settings/common.ts';
import { durationSeconds, positiveNumber } from '../core/settings/parsers.ts';
import { type ConfigOf, defineSettings, setting } from '../core/settings/table.ts';
import { DEFAULT_GATE_CONFIG, type GateConfig } from './model/config.ts';
import { DEFAULT_VERSIONS_FILE } from './versions/load.ts';

/**
 * `virtgate aggregator` settings, one entry each; the table's shape is AggregatorConfig's. The
 * Helm chart passes these flags (charts/virtgate/templates/aggregator): keep their names. A bad
 * value stops the process at start with one line naming the flag (exit 2). `virtgate gate`
 * picks the gate's entries from here.
 */
export const AGGREGATOR_SETTINGS = {
  kubeconfig: inClusterKubeconfigSetting,
  port: portSetting('HTTP port for the API, the page, /metrics, /healthz, /readyz'),
  bindAddress: bindAddressSetting,
  prefix: prefixSetting('the label prefix the agents use'),
  versionsFile: setting({
    flag: '--versions <file>',
    help: 'version data file (support matrix, CDI pairing, EOL dates)',
    schema: z.string().min(1),
    default: DEFAULT_VERSIONS_FILE,
  }),
  staleAfterSeconds: setting({
    flag: '--stale-after <duration>',
    help: 'a report whose heartbeat is older makes its node unknown',
    schema: z.number().min(60, 'must be at least 60 s (agents refresh their heartbeat every few minutes)').max(30 * 86_400),
    parse: durationSeconds,
    default: DEFAULT_GATE_CONFIG.staleAfterSeconds,
    defaultText: '30m',
  }),
  minReady: setting({
    flag: '--min-ready <count>',
    help: 'nodes.min-ready fails below this many ready nodes',
    schema: z.number().int('must be a whole number').min(1).max(100_000),
    parse: positiveNumber,
    default: DEFAULT_GATE_CONFIG.minReady,
  }),
  eolWarnDays: setting({
    flag: '--eol-warn-days <days>',
    help: 'tuple.kubernetes-eol warns this many days before end of life',
    schema: z.number().int().min(0).max(3650),
    parse: Number,
    default: DEFAULT_GATE_CONFIG.eolWarnDays,
  }),
  dataMaxAgeDays: setting({
    flag: '--data-max-age-days <days>',
    help: 'tuple.data-fresh warns when the version data is older',
    schema: z.number().int().min(1).max(3650),
    parse: Number,
    default: DEFAULT_GATE_CONFIG.dataMaxAgeDays,
  }),
  requestTimeoutSeconds: CLUSTER_REQUEST_TIMEOUT,
  calendarDate: setting({
    flag: '--calendar-date <YYYY-MM-DD>',
    help: 'judge the version calendar (support windows, end of life, data age) as of this UTC day instead of today; report ages still use the clock',
    schema: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a day as YYYY-MM-DD')
      .refine((day) => new Date(`${day}T00:00:00Z`).toISOString().startsWith(day), 'is not a calendar day')
      .optional(),
  }),
  logLevel: logLevelSetting,
};

export const aggregatorSettings = defineSettings(AGGREGATOR_SETTINGS);

export type AggregatorConfig = ConfigOf<typeof AGGREGATOR_SETTINGS>;

export const AGGREGATOR_DEFAULTS = aggregatorSettings.defaults;

export function parseAggregatorConfig(input: unknown): AggregatorConfig {
  return aggregatorSettings.parse(input);
}

/** The gate's knobs out of the process settings. */
export function gateConfigOf(config: Pick<AggregatorConfig, 'minReady' | 'staleAfterSeconds' | 'dataMaxAgeDays' | 'eolWarnDays' | 'prefix' | 'calendarDate'>): GateConfig {
  return {
    minReady: config.minReady,
    staleAfterSeconds: config.staleAfterSeconds,
    dataMaxAgeDays: config.dataMaxAgeDays,
    eolWarnDays: config.eolWarnDays,
    prefix: config.prefix,
    ...(config.calendarDate ? { calendarDate: config.calendarDate } : {}),
  };
}
