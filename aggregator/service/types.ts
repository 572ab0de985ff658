import type { GateReport } from '../gate/types.ts';
import type { ReflectorStatus } from '../watch/reflector.ts';
import type { ServerVersionStatus } from '../watch/server-version.ts';

/** The latest gate evaluation: the HTTP handlers serve it without recomputing. */
export interface LatestReport {
  report: GateReport;
  /** The clock at recompute time: the date the gate was evaluated on. */
  computedAt: Date;
  durationMs: number;
}

/** The settings the report was computed with, shown on the page and in the API. */
export interface AggregatorSettings {
  prefix: string;
  minReady: number;
  staleAfterSeconds: number;
  eolWarnDays: number;
  dataMaxAgeDays: number;
  versionsFile: string;
  dataUpdated: string;
}

/** The aggregator's own state: is what it serves complete and current? */
export interface AggregatorStatus {
  /** /readyz: synced, no watch broken, and a report exists. */
  ready: boolean;
  reason: string;
  /** Every watched kind has completed its first LIST, and the server version is known. */
  synced: boolean;
  /** Synced, and no watch is broken now. */
  healthy: boolean;
  /** The last recompute made while every watch was healthy. */
  lastInSyncAt: string | null;
  reportComputedAt: string | null;
  reportAgeSeconds: number | null;
  recomputeSeconds: number | null;
  serverVersion: ServerVersionStatus;
  watches: ReflectorStatus[];
  settings: AggregatorSettings;
  virtgateVersion: string;
}

/** What the HTTP routes and the metrics read. */
export interface ReportSource {
  latest(): LatestReport | null;
  status(): AggregatorStatus;
  /** The aggregator's clock (injected in tests). */
  now(): Date;
}
