import { z } from 'zod';

/** One watched kind (watch/reflector.ts). */
export const watchStatusSchema = z.strictObject({
  kind: z.string(),
  /** A full LIST has completed at least once. */
  synced: z.boolean(),
  /** Synced, and the last LIST or WATCH succeeded (no error since). */
  healthy: z.boolean(),
  objects: z.number().int(),
  lastListAt: z.string().nullable(),
  /** The last event or bookmark. */
  lastEventAt: z.string().nullable(),
  lists: z.number().int(),
  /** The last error, while unhealthy. */
  error: z.string().nullable(),
});
export type WatchStatus = z.infer<typeof watchStatusSchema>;

/** The API server's version (watch/server-version.ts). */
export const serverVersionStatusSchema = z.strictObject({
  /** `gitVersion` of GET /version, e.g. v1.36.3; null until first read. */
  gitVersion: z.string().nullable(),
  readAt: z.string().nullable(),
  /** The last error, while the latest read failed. */
  error: z.string().nullable(),
});
export type ServerVersionStatus = z.infer<typeof serverVersionStatusSchema>;

/** The settings the report was computed with, shown on the page and in the API. */
export const aggregatorSettingsSchema = z.strictObject({
  prefix: z.string(),
  minReady: z.number(),
  staleAfterSeconds: z.number(),
  eolWarnDays: z.number(),
  dataMaxAgeDays: z.number(),
  versionsFile: z.string(),
  dataUpdated: z.string(),
});
export type AggregatorSettings = z.infer<typeof aggregatorSettingsSchema>;

/** The aggregator's own state: is what it serves complete and current? */
export const aggregatorStatusSchema = z.strictObject({
  /** /readyz: synced, no watch broken, and a report exists. */
  ready: z.boolean(),
  reason: z.string(),
  /** Every watched kind has completed its first LIST, and the server version is known. */
  synced: z.boolean(),
  /** Synced, and no watch is broken now. */
  healthy: z.boolean(),
  /** The last recompute made while every watch was healthy. */
  lastInSyncAt: z.string().nullable(),
  reportComputedAt: z.string().nullable(),
  reportAgeSeconds: z.number().nullable(),
  recomputeSeconds: z.number().nullable(),
  serverVersion: serverVersionStatusSchema,
  watches: z.array(watchStatusSchema),
  settings: aggregatorSettingsSchema,
  virtgateVersion: z.string(),
});
export type AggregatorStatus = z.infer<typeof aggregatorStatusSchema>;
