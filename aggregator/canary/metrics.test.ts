import { describe, expect, it } from 'vitest';
import { healthyCluster, rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { FakeSource, latestOf } from '../../test/lab/aggregator/gate-source.ts';
import { vmBoot, type VmBootOptions } from '../../test/lab/aggregator/vm-boot.ts';
import { metricSeries, seriesValue } from '../../test/lab/processes/metrics-text.ts';
import { createAggregatorMetrics } from '../metrics.ts';

const INTEL = 'intel/xeon/hardware/5.14/metal';
const AMD = 'amd/epyc/hardware/6.8/metal';
const SECONDS = { scheduled: 2, launcherRunning: 9, vmiRunning: 14 };

/** What the aggregator does on a recompute: a new latest report, with its canary view; a scrape then observes its new boots. */
function recompute(source: FakeSource, results: Record<string, VmBootOptions | null>): void {
  source.report = latestOf(healthyCluster({ nodeValidations: ['node-a', 'node-b', 'node-c'].map((name) => rawReport(name, results[name] ? { vmBoot: vmBoot(results[name]) } : {})) }));
}

describe('the canary metrics', () => {
  it('a failing class, then booting; a result seen twice observed once; a class that disappears loses its series', async () => {
    const source = new FakeSource(null);
    const registry = createAggregatorMetrics(source);
    const text = () => registry.metrics();
    const count = async (nodeClass: string) => seriesValue(await text(), 'virtgate_canary_boot_seconds_count', { class: nodeClass });

    // Before the first report: no canary series at all.
    for (const name of ['virtgate_canary_boot_seconds_count', 'virtgate_canary_failed_runs', 'virtgate_canary_last_success_timestamp_seconds']) {
      expect(metricSeries(await text(), name), name).toEqual([]);
    }

    // Run 1: node-a (intel) boots in 21 s; node-b (amd) never gets its guest's nonce, the class's first failed run.
    const intelBoot = { nodeClass: INTEL, runAt: '2026-12-02T11:00:00Z', seconds: { ...SECONDS, guestMarker: 21 } };
    recompute(source, { 'node-a': intelBoot, 'node-b': { nodeClass: AMD, runAt: '2026-12-02T11:00:00Z', reason: 'GuestSilent', classFailedRuns: 1 } });
    let now = await text();
    expect(seriesValue(now, 'virtgate_canary_failed_runs', { class: INTEL })).toBe(0);
    expect(seriesValue(now, 'virtgate_canary_failed_runs', { class: AMD })).toBe(1);
    expect(seriesValue(now, 'virtgate_canary_last_success_timestamp_seconds', { class: INTEL })).toBe(Date.parse('2026-12-02T11:00:00Z') / 1000);
    expect(seriesValue(now, 'virtgate_canary_last_success_timestamp_seconds', { class: AMD })).toBeUndefined();
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_count', { class: INTEL })).toBe(1);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_sum', { class: INTEL })).toBe(21);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_bucket', { class: INTEL, le: '20' })).toBe(0);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_bucket', { class: INTEL, le: '30' })).toBe(1);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_bucket', { class: INTEL, le: '+Inf' })).toBe(1);
    // The failing class has its histogram at 0 already, so its first boot is an increase Prometheus sees.
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_count', { class: AMD })).toBe(0);
    // Buckets from 5 s to 10 min, per class.
    const bucketsOf = (nodeClass: string) =>
      metricSeries(now, 'virtgate_canary_boot_seconds_bucket').filter((series) => series.labels.includes(`class="${nodeClass}"`)).map((series) => /le="([^"]+)"/.exec(series.labels)?.[1]);
    for (const nodeClass of [INTEL, AMD]) expect(bucketsOf(nodeClass)).toEqual(['5', '10', '15', '20', '30', '45', '60', '90', '120', '180', '240', '300', '450', '600', '+Inf']);

    // The same objects recomputed (the minute tick, or a report's heartbeat): nothing is observed again.
    recompute(source, { 'node-a': intelBoot, 'node-b': { nodeClass: AMD, runAt: '2026-12-02T11:00:00Z', reason: 'GuestSilent', classFailedRuns: 1 } });
    expect(await count(INTEL)).toBe(1);

    // Run 2: amd fails again on node-c (node-b keeps its older result); intel is not picked.
    recompute(source, {
      'node-a': intelBoot,
      'node-b': { nodeClass: AMD, runAt: '2026-12-02T11:00:00Z', reason: 'GuestSilent', classFailedRuns: 1 },
      'node-c': { nodeClass: AMD, runAt: '2026-12-02T11:30:00Z', reason: 'LauncherFailed', classFailedRuns: 2 },
    });
    expect(seriesValue(await text(), 'virtgate_canary_failed_runs', { class: AMD })).toBe(2);
    expect(await count(AMD)).toBe(0);

    // Run 3: amd boots on node-b in 95 s; intel boots again on node-a in 8 s.
    recompute(source, {
      'node-a': { nodeClass: INTEL, runAt: '2026-12-02T12:00:00Z', seconds: { ...SECONDS, guestMarker: 8 } },
      'node-b': { nodeClass: AMD, runAt: '2026-12-02T12:00:00Z', seconds: { ...SECONDS, guestMarker: 95 } },
      'node-c': { nodeClass: AMD, runAt: '2026-12-02T11:30:00Z', reason: 'LauncherFailed', classFailedRuns: 2 },
    });
    now = await text();
    expect(seriesValue(now, 'virtgate_canary_failed_runs', { class: AMD })).toBe(0);
    expect(seriesValue(now, 'virtgate_canary_last_success_timestamp_seconds', { class: AMD })).toBe(Date.parse('2026-12-02T12:00:00Z') / 1000);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_count', { class: AMD })).toBe(1);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_sum', { class: AMD })).toBe(95);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_bucket', { class: AMD, le: '90' })).toBe(0);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_bucket', { class: AMD, le: '120' })).toBe(1);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_count', { class: INTEL })).toBe(2);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_sum', { class: INTEL })).toBe(29);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_bucket', { class: INTEL, le: '10' })).toBe(1);

    // The amd nodes are re-classed (a kernel upgrade): no report names amd any longer, and none of its series is left.
    const amd64 = 'amd/epyc/hardware/6.12/metal';
    recompute(source, {
      'node-a': { nodeClass: INTEL, runAt: '2026-12-02T12:00:00Z', seconds: { ...SECONDS, guestMarker: 8 } },
      'node-b': { nodeClass: amd64, runAt: '2026-12-02T12:30:00Z', reason: 'NotScheduled', classFailedRuns: 1 },
    });
    now = await text();
    expect(now).not.toContain(`class="${AMD}"`);
    expect(seriesValue(now, 'virtgate_canary_failed_runs', { class: amd64 })).toBe(1);
    expect(seriesValue(now, 'virtgate_canary_boot_seconds_count', { class: INTEL })).toBe(2);

    // No result anywhere (the canary turned off, its results cleared): no class, no series.
    recompute(source, {});
    now = await text();
    expect(now).not.toMatch(/virtgate_canary_\w+\{/);
  });

  it('a node that boots again in a later run is observed again; the same run on another node too', async () => {
    const source = new FakeSource(null);
    const registry = createAggregatorMetrics(source);
    const boot = (runAt: string, guestMarker: number): VmBootOptions => ({ nodeClass: INTEL, runAt, seconds: { ...SECONDS, guestMarker } });
    recompute(source, { 'node-a': boot('2026-12-02T11:00:00Z', 20), 'node-b': boot('2026-12-02T11:00:00Z', 20) });
    // Prometheus scrapes between two runs (every 30 s; a run is every 30 minutes by default).
    await registry.metrics();
    recompute(source, { 'node-a': boot('2026-12-02T11:30:00Z', 40), 'node-b': boot('2026-12-02T11:00:00Z', 20) });
    const text = await registry.metrics();
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_count', { class: INTEL })).toBe(3);
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_sum', { class: INTEL })).toBe(80);
  });
});
