/**
 * The API server restarts in the middle of the aggregator's watches. While it is down /readyz is
 * false and says which watch is broken; when it is back the watches recover on their own (410 Gone
 * makes them relist), /readyz is true again, and changes made afterwards reach the report.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createCdi, createKubeVirt, createValidatedNode, installKubeVirtCrds, resetCluster, updateReport } from '../lab/support/aggregator-cluster.ts';
import { check, type Harness, nodeNames, startAggregator } from '../lab/support/aggregator-harness.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
let admin: KubeConfig;
let harness: Harness;
const clock = new Date('2026-12-02T12:00:00Z');
const heartbeatAt = new Date(clock.getTime() - 60_000);
const LABELS = { 'virtgate.io/ready': 'true' };

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
  await installKubeVirtCrds(admin);
  await resetCluster(admin);
  await createValidatedNode(admin, 'agg-restart-1', { node: { labels: LABELS }, report: { heartbeatAt } });
  await createValidatedNode(admin, 'agg-restart-2', { node: { labels: LABELS }, report: { heartbeatAt } });
  await createKubeVirt(admin, { name: 'agg-restart', version: 'v1.9.0', nodePlacement: { nodeSelector: LABELS } });
  await createCdi(admin, 'agg-restart', 'v1.66.0');
  // Short backoff so the test does not wait out a production-sized one; staleness stays generous.
  harness = await startAggregator(admin, { now: () => clock, timing: { watch: { backoff: { baseMs: 200, maxMs: 2000 } } } });
});

afterAll(async () => {
  await harness?.stop();
  // Leave the control plane up for the files after this one, whatever happened here.
  await cp.control('apiserver/start').catch(() => undefined);
});

describe('an API server restart in the middle of the watches', () => {
  it('goes unready while the server is down, recovers on its own, and sees the changes made afterwards', async () => {
    const before = await harness.waitForGate('the first report', (report) => nodeNames(report).length === 2 && report.versions.kubevirt.state === 'known');
    expect(before.result).toBe('pass');
    expect((await harness.readyz()).status).toBe(200);
    const versionReadAt = before.aggregator.serverVersion.readAt;

    await cp.control('apiserver/stop');
    const broken = await waitFor('/readyz to go false', async () => {
      const readyz = await harness.readyz();
      return readyz.status === 503 ? readyz : undefined;
    });
    expect(broken.body).toMatch(/^watch broken: /);
    // The last-known report is still served, flagged as not healthy.
    const stale = await harness.gate();
    expect(stale?.aggregator).toMatchObject({ ready: false, synced: true, healthy: false });
    expect(stale?.result).toBe('pass');

    await cp.control('apiserver/start');
    await waitFor('/readyz to be true again', async () => ((await harness.readyz()).status === 200 ? true : undefined), 60_000);

    // Changes made after the restart: a new node, a report that turns not ready.
    await createValidatedNode(admin, 'agg-restart-3', { node: { labels: LABELS }, report: { heartbeatAt } });
    await updateReport(admin, 'agg-restart-1', { heartbeatAt, ready: false });
    const after = await harness.waitForGate('the changes made after the restart', (report) =>
      nodeNames(report).includes('agg-restart-3') && report.readiness.nodes.some((node) => node.name === 'agg-restart-1' && node.state === 'not-ready'),
    );
    expect(after.readiness.counts).toEqual({ ready: 2, emulation: 0, 'not-ready': 1, unknown: 0 });
    expect(check(after, 'kubevirt.placement')).toMatchObject({ status: 'fail', evidence: { selectedNotReady: ['agg-restart-1 (not-ready)'] } });
    expect(after.aggregator).toMatchObject({ ready: true, healthy: true });
    expect(after.aggregator.watches.every((watch) => watch.healthy && watch.error === null)).toBe(true);
    // The version is read again after the watches recovered (the server may have been upgraded).
    expect(after.aggregator.serverVersion.readAt).not.toBe(versionReadAt);
    expect(after.aggregator.serverVersion.gitVersion).toBe('v1.36.3');
  });
});
