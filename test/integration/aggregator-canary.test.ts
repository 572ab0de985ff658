/**
 * The VM canary's results through the real aggregator: results written as `virtgate canary` writes
 * them (JSON Patch `add /status/vmBoot` on the real API server) reach GET /api/v1/canary and the
 * virtgate_canary_* series; the agent's own status writes (a heartbeat) do not observe a boot again;
 * a class nobody names any more loses its series.
 * The expectations are written by hand from the results written, not computed by the product.
 */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryResponseSchema, type CanaryResponse } from '../../aggregator/documents/canary.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode } from '../lab/controlplane/identities.ts';
import { vmBoot } from '../lab/aggregator/vm-boot.ts';
import { metricSeries, seriesValue } from '../lab/processes/metrics-text.ts';
import { createValidatedNode, reportStatus, resetCluster, updateReport } from '../lab/support/aggregator-cluster.ts';
import { type Harness, startAggregator } from '../lab/support/aggregator-harness.ts';
import { installCrd } from '../lab/support/crds.ts';
import { createNodeValidation } from '../lab/support/node-validations.ts';
import { writeVmBoot } from '../lab/support/vm-boot-writer.ts';
import { waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
const clock = new Date('2026-12-02T12:00:00Z');
const heartbeatAt = new Date(clock.getTime() - 60_000);
const INTEL = 'intel/xeon/hardware/5.14/metal';
const AMD = 'amd/epyc/hardware/6.8/metal';
const STEPS = { scheduled: 2, launcherRunning: 9, vmiRunning: 14 };
let admin: KubeConfig;
let harness: Harness;

async function canary(): Promise<CanaryResponse> {
  const response = await harness.aggregator.app.inject({ url: '/api/v1/canary' });
  expect(response.statusCode).toBe(200);
  return canaryResponseSchema.parse(response.json());
}

async function metrics(): Promise<string> {
  return (await harness.aggregator.app.inject({ url: '/metrics' })).body;
}

/** Polls until the aggregator's canary document satisfies `accept` (the watch and the debounced recompute take a moment). */
const canaryWhen = (what: string, accept: (document: CanaryResponse) => boolean) => waitFor(what, async () => {
  const document = await canary();
  return accept(document) ? document : undefined;
}, 30_000, 100);

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
  await resetCluster(admin);
  for (const name of ['agg-canary-1', 'agg-canary-2', 'agg-canary-3']) await createValidatedNode(admin, name, { report: { heartbeatAt } });
  harness = await startAggregator(admin, { now: () => clock });
  await harness.waitForGate('the first report', (report) => report.readiness.total === 3);
});

afterAll(async () => {
  await harness?.stop();
});

describe('the VM canary through the aggregator', () => {
  it('serves no class and no canary series before the canary has written anything', async () => {
    const document = await canary();
    expect(document).toMatchObject({ apiVersion: 'virtgate.io/v1alpha1', kind: 'CanaryReport', nodes: 0, classes: [] });
    expect(await metrics()).not.toMatch(/^virtgate_canary_\w+\{/m);
  });

  it('per class, from the real status writes: the newest result, failed runs, boots observed once, a class that goes loses its series', async () => {
    // Run 1: intel boots on node 1 in 21 s; amd's guest stays silent on node 2 (its first failed run);
    await writeVmBoot(admin, 'agg-canary-1', vmBoot({ nodeClass: INTEL, runAt: '2026-12-02T11:00:00Z', seconds: { ...STEPS, guestMarker: 21 } }));
    await writeVmBoot(admin, 'agg-canary-2', vmBoot({ nodeClass: AMD, runAt: '2026-12-02T11:00:00Z', reason: 'GuestSilent', classFailedRuns: 1, message: 'console: SeaBIOS' }));
    const first = await canaryWhen('both classes', (document) => document.classes.length === 2);
    expect(first.nodes).toBe(2);
    expect(first.evaluatedAt).toBe(clock.toISOString());
    expect(first.classes).toEqual([
      {
        nodeClass: AMD,
        nodes: 1,
        booted: 0,
        latest: { node: 'agg-canary-2', status: 'False', reason: 'GuestSilent', message: 'console: SeaBIOS', runAt: '2026-12-02T11:00:00Z', ageSeconds: 3600, seconds: { scheduled: 2 } },
        failedRuns: 1,
        lastSuccessAt: null,
        lastBoot: null,
      },
      {
        nodeClass: INTEL,
        nodes: 1,
        booted: 1,
        latest: { node: 'agg-canary-1', status: 'True', reason: 'Booted', message: 'the guest printed the nonce', runAt: '2026-12-02T11:00:00Z', ageSeconds: 3600, seconds: { ...STEPS, guestMarker: 21 } },
        failedRuns: 0,
        lastSuccessAt: '2026-12-02T11:00:00Z',
        lastBoot: { node: 'agg-canary-1', runAt: '2026-12-02T11:00:00Z', seconds: { ...STEPS, guestMarker: 21 } },
      },
    ]);
    let text = await metrics();
    expect(seriesValue(text, 'virtgate_canary_failed_runs', { class: AMD })).toBe(1);
    expect(seriesValue(text, 'virtgate_canary_failed_runs', { class: INTEL })).toBe(0);
    expect(seriesValue(text, 'virtgate_canary_last_success_timestamp_seconds', { class: INTEL })).toBe(Date.parse('2026-12-02T11:00:00Z') / 1000);
    expect(seriesValue(text, 'virtgate_canary_last_success_timestamp_seconds', { class: AMD })).toBeUndefined();
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_count', { class: INTEL })).toBe(1);
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_sum', { class: INTEL })).toBe(21);
    // The forged report's boot is not observed.
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_count', { class: AMD })).toBe(0);

    // The agent writes its heartbeat (a merge patch of its own keys): the canary's result stays, and is not observed again.
    await updateReport(admin, 'agg-canary-1', { heartbeatAt: new Date(clock.getTime() - 30_000) });
    await harness.waitForGate('the new heartbeat', (report) => report.readiness.nodes.find((node) => node.name === 'agg-canary-1')?.heartbeatAgeSeconds === 30);
    text = await metrics();
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_count', { class: INTEL })).toBe(1);
    expect((await canary()).classes.find((entry) => entry.nodeClass === INTEL)?.latest.runAt).toBe('2026-12-02T11:00:00Z');

    // Run 2: amd boots on node 3 in 95 s; intel boots again on node 1 in 8 s.
    await writeVmBoot(admin, 'agg-canary-3', vmBoot({ nodeClass: AMD, runAt: '2026-12-02T11:30:00Z', seconds: { ...STEPS, guestMarker: 95 } }));
    await writeVmBoot(admin, 'agg-canary-1', vmBoot({ nodeClass: INTEL, runAt: '2026-12-02T11:30:00Z', seconds: { ...STEPS, guestMarker: 8 } }));
    await canaryWhen('amd booted and intel run again', (document) => document.classes.every((entry) => entry.latest.runAt === '2026-12-02T11:30:00Z'));
    text = await metrics();
    expect(seriesValue(text, 'virtgate_canary_failed_runs', { class: AMD })).toBe(0);
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_count', { class: AMD })).toBe(1);
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_bucket', { class: AMD, le: '90' })).toBe(0);
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_bucket', { class: AMD, le: '120' })).toBe(1);
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_count', { class: INTEL })).toBe(2);
    expect(seriesValue(text, 'virtgate_canary_boot_seconds_sum', { class: INTEL })).toBe(29);

    // The amd nodes are re-classed by a kernel upgrade: no report names amd any longer.
    const amdNew = 'amd/epyc/hardware/6.12/metal';
    await writeVmBoot(admin, 'agg-canary-2', vmBoot({ nodeClass: amdNew, runAt: '2026-12-02T11:45:00Z', reason: 'NotScheduled', classFailedRuns: 1 }));
    await writeVmBoot(admin, 'agg-canary-3', vmBoot({ nodeClass: amdNew, runAt: '2026-12-02T11:15:00Z', reason: 'NotScheduled', classFailedRuns: 1 }));
    await canaryWhen('amd re-classed', (document) => !document.classes.some((entry) => entry.nodeClass === AMD));
    text = await metrics();
    expect(text).not.toContain(`class="${AMD}"`);
    expect(seriesValue(text, 'virtgate_canary_failed_runs', { class: amdNew })).toBe(1);
    expect(metricSeries(text, 'virtgate_canary_boot_seconds_count').map((series) => series.labels).sort()).toEqual([`{class="${amdNew}"}`, `{class="${INTEL}"}`]);
  });
});
