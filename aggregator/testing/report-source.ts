/** A ReportSource over a fixed report, for the HTTP and metrics tests. Test-only. */
import { readFileSync } from 'node:fs';
import { gate } from '../gate/gate.ts';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import type { ClusterSnapshot } from '../model/snapshot.ts';
import type { AggregatorStatus, LatestReport, ReportSource } from '../service/types.ts';
import { DEFAULT_VERSIONS_FILE } from '../versions/load.ts';
import { parseVersionData } from '../versions/parse.ts';
import { NOW } from './cluster-fixtures.ts';

export const VERSION_DATA = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), DEFAULT_VERSIONS_FILE);

export function latestOf(snapshot: ClusterSnapshot, now: Date = NOW): LatestReport {
  const report = gate(snapshot, VERSION_DATA, DEFAULT_GATE_CONFIG, now);
  return { report, computedAt: now, durationMs: 12 };
}

export function statusOf(overrides: Partial<AggregatorStatus> = {}): AggregatorStatus {
  return {
    ready: true,
    reason: 'in sync with the API server',
    synced: true,
    healthy: true,
    lastInSyncAt: NOW.toISOString(),
    reportComputedAt: NOW.toISOString(),
    reportAgeSeconds: 0,
    recomputeSeconds: 0.012,
    serverVersion: { gitVersion: 'v1.36.3', readAt: NOW.toISOString(), error: null },
    watches: ['nodes', 'nodevalidations', 'crd/kubevirts.kubevirt.io', 'crd/cdis.cdi.kubevirt.io', 'kubevirts', 'cdis'].map((kind) => ({
      kind,
      synced: true,
      healthy: true,
      objects: 1,
      lastListAt: NOW.toISOString(),
      lastEventAt: null,
      lists: 1,
      error: null,
    })),
    settings: {
      prefix: 'virtgate.io',
      minReady: 2,
      staleAfterSeconds: 1800,
      eolWarnDays: 90,
      dataMaxAgeDays: 180,
      versionsFile: DEFAULT_VERSIONS_FILE,
      dataUpdated: VERSION_DATA.updated,
    },
    virtgateVersion: '0.1.0',
    ...overrides,
  };
}

/** A mutable source: tests swap the report and the status. */
export class FakeSource implements ReportSource {
  report: LatestReport | null;
  state: AggregatorStatus;
  clock: Date;

  constructor(report: LatestReport | null, state: AggregatorStatus = statusOf(), clock: Date = NOW) {
    this.report = report;
    this.state = state;
    this.clock = clock;
  }

  latest(): LatestReport | null {
    return this.report;
  }

  status(): AggregatorStatus {
    return this.state;
  }

  now(): Date {
    return this.clock;
  }
}
