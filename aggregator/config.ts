import { z } from 'zod';
import {
  bindAddressSetting,
  checkWatchTiming,
  CLUSTER_REQUEST_TIMEOUT,
  inClusterKubeconfigSetting,
  logLevelSetting,
  portSetting,
  prefixSetting,
  watchSettings,
} from '../core/settings/common.ts';
import { durationSetting } from '../core/settings/duration.ts';
import { positiveNumber } from '../core/settings/parsers.ts';
import { type ConfigOf, defineSettings, setting } from '../core/settings/table.ts';
import { DEFAULT_GATE_CONFIG, DEFAULT_STALE_AFTER, type GateConfig } from './model/config.ts';
import type { ReflectorTiming } from './watch/reflector.ts';
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
    // The chart passes it only for versions.override, mounted from a ConfigMap.
    chart: false,
  }),
  staleAfterSeconds: durationSetting({
    flag: '--stale-after <duration>',
    help: 'a report whose heartbeat is older makes its node unknown',
    default: DEFAULT_STALE_AFTER,
    min: '60s',
    minMessage: 'must be at least 60 s (agents refresh their heartbeat every few minutes)',
    max: '30d',
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
    // For tests and what-if runs; a cluster judges today.
    chart: false,
  }),
  shutdownDrainSeconds: durationSetting({
    flag: '--shutdown-drain <duration>',
    help: 'after SIGTERM, serve on this long with every response asking its client to close the connection, so kept-alive clients move to another pod before this one stops; ends once no connection is open',
    default: '2s',
    min: '1s',
    // The chart's grace period is shutdownDelaySeconds + 25 s: room for this and the stop after it.
    max: '5s',
  }),
  perNodeMetrics: setting({
    flag: '--no-per-node-metrics',
    help: 'leave the per-node series (virtgate_node_report_timestamp_seconds, virtgate_node_migration_targets: two per node) out of /metrics; the cluster series stay',
    schema: z.boolean(),
    default: true,
  }),
  watch: watchSettings({ staleAfter: '330s', backoffBase: '500ms' }),
  logLevel: logLevelSetting,
};

export const aggregatorSettings = defineSettings(AGGREGATOR_SETTINGS, (config, ctx) => checkWatchTiming(config.watch, ctx));

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

/** The reflectors' timings out of the process settings. */
export function watchTimingOf(watch: AggregatorConfig['watch']): Partial<ReflectorTiming> {
  return {
    watchTimeoutSeconds: watch.timeoutSeconds,
    staleAfterMs: watch.staleAfterSeconds * 1000,
    backoff: { baseMs: watch.backoffBaseSeconds * 1000, maxMs: watch.backoffMaxSeconds * 1000 },
  };
}
