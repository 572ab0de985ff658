/**
 * Hostile and huge objects in the real API server — NodeValidations whose free-form fields hold
 * any type and whose text is markup, reports that are not what they claim, a Node with hundreds of
 * labels and taints, KubeVirt and CDI objects with wrong types and thousands of entries — crash
 * neither the real aggregator process nor its page: every API route answers and matches its
 * schema, the odd reports are set aside as unknown (with why), the page renders in Chromium with
 * the markup as text and nothing executed, and `virtgate gate` still evaluates.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateResponseSchema, nodeResponseSchema, nodesResponseSchema, summaryResponseSchema } from '../../aggregator/documents/api.ts';
import { gateResultDocumentSchema } from '../../aggregator/documents/gate.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createValidatedNode, installKubeVirtCrds } from '../lab/support/aggregator-cluster.ts';
import { type AggregatorProcess, startAggregatorProcess } from '../lab/processes/launch.ts';
import { type Browser, launchChromium } from '../lab/support/chromium.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { createHostileObjects, deleteHostileObjects, type HostileNames, XSS } from './hostile-objects.ts';
import { childEnv, cliEnv } from './child-env.ts';
import { Fault } from './ledger.ts';
import { crashes, pidsOf } from './processes.ts';
import { runCli } from '../lab/cli.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
let aggregator: AggregatorProcess;
let names: HostileNames | undefined;
let browser: Browser | undefined;
let pids: Array<number | undefined>;
const watched = () => [{ label: 'aggregator', child: aggregator.child, logs: aggregator.logs, startedMessage: 'virtgate aggregator started' }];

async function json(pathname: string): Promise<{ status: number; body: unknown; bytes: number }> {
  const response = await aggregator.get(pathname);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as unknown, bytes: text.length };
}

/** Healthy nodes beside the hostile objects: the census checks the aggregator's verdict on them never moves. */
const HEALTHY = ['fault-calm-a', 'fault-calm-b'];

async function healthyStates(): Promise<Record<string, string>> {
  const { body } = await json('/api/v1/nodes');
  const nodes = nodesResponseSchema.parse(body).nodes;
  return Object.fromEntries(HEALTHY.map((name) => [name, nodes.find((node) => node.name === name)?.state ?? 'absent']));
}

beforeAll(async () => {
  await installCrd(admin);
  await installKubeVirtCrds(admin);
  // Heartbeats 20 min ahead keep these reports fresh for the whole file: a report goes stale 30 min
  // after its heartbeat and is ignored as invalid 30 min before it.
  const heartbeatAt = new Date(Date.now() + 20 * 60_000);
  for (const name of HEALTHY) await createValidatedNode(admin, name, { report: { heartbeatAt, ready: true, tier: 'hardware' } });
  aggregator = await startAggregatorProcess(['--kubeconfig', cp.adminKubeconfig], childEnv());
  pids = pidsOf(watched());
  await waitFor('the healthy nodes to be ready in the aggregator', async () => (Object.values(await healthyStates()).every((state) => state === 'ready') ? true : undefined), 60_000, 500);
});

afterAll(async () => {
  await browser?.close();
  await aggregator?.stop();
  if (names) await deleteHostileObjects(admin, names);
  const core = admin.makeApiClient(CoreV1Api);
  for (const name of HEALTHY) await core.deleteNode({ name }).catch(() => undefined);
});

describe('hostile and huge objects in the cluster', () => {
  it('crash neither the aggregator nor its API: every route answers, odd reports are set aside as unknown', async () => {
    const fault = new Fault('hostile-object', 'NodeValidations, Node labels, KubeVirt and CDI objects');
    try {
      names = await createHostileObjects(admin);
      fault.tried(names.nodes.length + names.reports.length + names.kubevirts.length + names.cdis.length);
      const gate = await fault.converge(() =>
        waitFor('the aggregator to report on the hostile objects', async () => {
          const { status, body } = await json('/api/v1/gate');
          if (status !== 200) return undefined;
          const report = gateResponseSchema.parse(body);
          const seen = report.readiness.nodes.filter((node) => node.name.startsWith('fault-hostile-')).length;
          return seen === 3 && report.readiness.ignored.orphanReports.includes('fault-hostile-orphan') ? report : undefined;
        }, 60_000, 500),
      );
      const node = (name: string) => gate.readiness.nodes.find((entry) => entry.name === name);
      expect(node('fault-hostile-types')).toMatchObject({ state: 'unknown', unknownCause: 'invalid' });
      expect(node('fault-hostile-types')?.reason).toMatch(/in the future/);
      expect(node('fault-hostile-bare')).toMatchObject({ state: 'unknown', unknownCause: 'invalid' });
      expect(['ready', 'emulation', 'not-ready', 'unknown']).toContain(node('fault-hostile-labels')?.state);
      // The hostile KubeVirt objects were read, not skipped.
      expect(gate.checks.find((check) => check.id === 'kubevirt.deployed')?.message).toBeTruthy();

      for (const pathname of ['/api/v1/summary', '/api/v1/nodes', '/api/v1/nodes?state=unknown', '/api/v1/nodes/fault-hostile-labels', `/api/v1/nodes/${encodeURIComponent(XSS)}`]) {
        const { status, body, bytes } = await json(pathname);
        expect([200, 404], pathname).toContain(status);
        if (pathname === '/api/v1/summary') summaryResponseSchema.parse(body);
        if (pathname.startsWith('/api/v1/nodes?') || pathname === '/api/v1/nodes') nodesResponseSchema.parse(body);
        if (pathname === '/api/v1/nodes/fault-hostile-labels') nodeResponseSchema.parse(body);
        // Megabytes went in; what comes out is bounded.
        expect(bytes, pathname).toBeLessThan(1024 * 1024);
      }
      expect((await aggregator.get('/metrics')).status).toBe(200);
      expect((await aggregator.get('/')).status).toBe(200);
      expect((await aggregator.get('/readyz')).status).toBe(200);
      expect(crashes(watched(), pids)).toEqual([]);
      // The census: the aggregator's published verdict on the healthy nodes did not move.
      const healthy = await healthyStates();
      const moved = Object.entries(healthy).filter(([, state]) => state !== 'ready');
      fault.objects(HEALTHY.length, moved.length);
      expect(moved).toEqual([]);
    } finally {
      fault.finish();
    }
  });

  it('the page renders them in Chromium as text; nothing executes', async () => {
    browser = await launchChromium();
    const page: Page = await browser.context.newPage();
    const dialogs: string[] = [];
    const errors: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${aggregator.url}/?refresh=1`);
    await page.locator('tr[data-node="fault-hostile-labels"]').waitFor({ timeout: 30_000 });
    // Two refreshes with the hostile data, then look.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await page.locator('tr[data-node^="fault-hostile-"]').count()).toBe(3);
    expect(await page.locator('body').textContent()).toContain('<img src=x onerror=');
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(crashes(watched(), pids)).toEqual([]);
  });

  it('virtgate gate evaluates them too', async () => {
    const run = await runCli(['gate', '--kubeconfig', cp.adminKubeconfig, '--json'], cliEnv(), { timeoutMs: 45_000 });
    expect([0, 1, 3], run.stderr).toContain(run.code);
    const report = gateResultDocumentSchema.parse(JSON.parse(run.stdout));
    expect(report.readiness.nodes.some((node) => node.name === 'fault-hostile-types' && node.state === 'unknown')).toBe(true);
  });
});
