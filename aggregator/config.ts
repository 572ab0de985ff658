import { z } from 'zod';
import { settingError } from '../core/config-error.ts';
import { DEFAULT_PREFIX, isValidPrefix } from '../core/kube/names.ts';
import { DEFAULT_GATE_CONFIG, type GateConfig } from './model/config.ts';
import { DEFAULT_VERSIONS_FILE } from './versions/load.ts';

/**
 * `virtgate aggregator` settings. The Helm chart passes the flags named in SETTING_NAMES; a bad
 * value stops the process at start with one line naming the flag (exit 2).
 */
export const aggregatorConfigSchema = z.object({
  kubeconfig: z.string().optional(),
  port: z.number().int().min(0).max(65_535),
  bindAddress: z.string().min(1),
  prefix: z.string().refine(isValidPrefix, 'must be a DNS subdomain outside kubevirt.io, kubernetes.io and k8s.io'),
  versionsFile: z.string().min(1),
  staleAfterSeconds: z.number().min(60, 'must be at least 60 s (agents refresh their heartbeat every few minutes)').max(30 * 86_400),
  minReady: z.number().int('must be a whole number').min(1).max(100_000),
  eolWarnDays: z.number().int().min(0).max(3650),
  dataMaxAgeDays: z.number().int().min(1).max(3650),
  requestTimeoutSeconds: z.number().min(1).max(300),
  calendarDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a day as YYYY-MM-DD')
    .refine((day) => new Date(`${day}T00:00:00Z`).toISOString().startsWith(day), 'is not a calendar day')
    .optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']),
});

export type AggregatorConfig = z.infer<typeof aggregatorConfigSchema>;

export const AGGREGATOR_DEFAULTS = {
  port: 8080,
  bindAddress: '0.0.0.0',
  prefix: DEFAULT_PREFIX,
  versionsFile: DEFAULT_VERSIONS_FILE,
  staleAfterSeconds: DEFAULT_GATE_CONFIG.staleAfterSeconds,
  minReady: DEFAULT_GATE_CONFIG.minReady,
  eolWarnDays: DEFAULT_GATE_CONFIG.eolWarnDays,
  dataMaxAgeDays: DEFAULT_GATE_CONFIG.dataMaxAgeDays,
  requestTimeoutSeconds: 30,
  logLevel: 'info',
} as const satisfies Omit<AggregatorConfig, 'kubeconfig'>;

const SETTING_NAMES: Record<string, string> = {
  port: '--port',
  bindAddress: '--bind-address',
  prefix: '--prefix',
  versionsFile: '--versions',
  staleAfterSeconds: '--stale-after',
  minReady: '--min-ready',
  eolWarnDays: '--eol-warn-days',
  dataMaxAgeDays: '--data-max-age-days',
  requestTimeoutSeconds: '--request-timeout',
  calendarDate: '--calendar-date',
  logLevel: '--log-level',
};

/** `virtgate gate` takes the gate's settings and none of the server's. */
export const gateSettingsSchema = aggregatorConfigSchema.pick({
  kubeconfig: true,
  prefix: true,
  versionsFile: true,
  staleAfterSeconds: true,
  minReady: true,
  eolWarnDays: true,
  dataMaxAgeDays: true,
  requestTimeoutSeconds: true,
  calendarDate: true,
});

export type GateSettings = z.infer<typeof gateSettingsSchema>;

/** Validates settings; the error names the first bad one as the user spells it, in one line. */
function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw settingError(result.error, SETTING_NAMES);
}

export function parseAggregatorConfig(input: unknown): AggregatorConfig {
  return validate(aggregatorConfigSchema, input);
}

export function parseGateSettings(input: unknown): GateSettings {
  return validate(gateSettingsSchema, input);
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
