/**
 * The page in real headless Chromium: it renders the gate and the nodes from the live API, prints
 * hostile text from the cluster literally (no dialog, no injected element), and says when it
 * cannot reach the aggregator or the aggregator is not synced. Saves artifacts/aggregator-page.png.
 */
import { GATE_CHECK_IDS } from '../../aggregator/documents/gate.ts';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { writeKubeconfig } from '../lab/controlplane/kubeconfig.ts';
import { createCdi, createKubeVirt, createValidatedNode, installKubeVirtCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { type Harness, startAggregator } from '../lab/support/aggregator-harness.ts';
import { closedPort } from '../lab/controlplane/ports.ts';
import { type Browser, launchChromium } from '../lab/support/chromium.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { vmBoot } from '../lab/aggregator/vm-boot.ts';
import { writeVmBoot } from '../lab/support/vm-boot-writer.ts';

const cp = useControlPlane();
const ARTIFACTS = path.join(PACKAGE_ROOT, 'artifacts');
const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(2)>';
const RUNTIME = 'containerd://<img src=x onerror=alert(3)>';
const PHASE = '<img src=x onerror=alert(4)>';
const CANARY_CLASS = 'amd/<img src=x onerror=alert(5)>/hardware/6.8/metal';

let browser: Browser;
let harness: (Harness & { url: string | null }) | undefined;
let unsynced: (Harness & { url: string | null }) | undefined;
let page: Page;
const dialogs: string[] = [];
const pageErrors: string[] = [];
let gateFetches = 0;

beforeAll(async () => {
  // First, so that a missing Chromium fails the file with its own message.
  browser = await launchChromium();
  const admin = cp.adminConfig();
  await installCrd(admin);
  await installKubeVirtCrds(admin);
  await resetCluster(admin);
  const now = new Date();
  const heartbeatAt = new Date(now.getTime() - 60_000);
  await createValidatedNode(admin, 'agg-page-ok-1', { report: { heartbeatAt } });
  await createValidatedNode(admin, 'agg-page-ok-2', { report: { heartbeatAt, vendor: 'intel' } });
  // Text an agent (or a kubelet, or a KubeVirt operator) could write: all of it must stay text.
  await createValidatedNode(admin, 'agg-page-xss', {
    node: { containerRuntimeVersion: RUNTIME },
    report: {
      heartbeatAt,
      ready: false,
      kernel: '<b>6.8</b>',
      checks: [
        { id: 'dev.kvm', status: 'fail', message: `/dev/kvm ${SCRIPT}` },
        { id: 'kernel.version', status: 'warn', message: IMG },
      ],
    },
  });
  await createKubeVirt(admin, { name: 'agg-page', version: 'v1.9.0', phase: PHASE, permittedHostDevices: { pciHostDevices: [{ pciVendorSelector: '10DE:2236', resourceName: `nvidia.com/${IMG}` }] } });
  await createCdi(admin, 'agg-page', 'v1.66.0');
  // The VM canary's results, as it writes them: one class booted 10 minutes ago, another whose
  // guest stayed silent (its console tail is text the guest printed: untrusted too).
  const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await writeVmBoot(admin, 'agg-page-ok-1', vmBoot({ nodeClass: 'intel/xeon/hardware/5.14/metal', runAt: minutesAgo(10), seconds: { scheduled: 2, launcherRunning: 9, vmiRunning: 14, guestMarker: 21 } }));
  await writeVmBoot(admin, 'agg-page-ok-2', vmBoot({ nodeClass: CANARY_CLASS, runAt: minutesAgo(30), reason: 'GuestSilent', classFailedRuns: 3, lastSuccessAt: minutesAgo(180), message: `console: ${SCRIPT}` }));
  harness = await startAggregator(admin, { listen: true });
  await harness.waitForGate('the report to cover the page nodes', (report) => report.readiness.total === 3 && report.versions.cdi.state === 'known');
  await mkdir(ARTIFACTS, { recursive: true });
  page = await browser.context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('request', (request) => {
    if (request.url().endsWith('/api/v1/gate')) gateFetches += 1;
  });
});

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
  await unsynced?.stop();
});

describe('the aggregator page in Chromium', () => {
  it('renders the gate and the nodes, and prints hostile text literally', async () => {
    await page.goto(`${harness?.url}/?refresh=1`);
    const row = page.locator('tr[data-node="agg-page-xss"]');
    await row.waitFor();
    // The gate as a checklist: every check, with status and message.
    await expect.poll(() => page.locator('li.check').count()).toBe(GATE_CHECK_IDS.length);
    expect(await page.locator('#result').textContent()).toBe('FAIL · exit 1');
    expect(await page.locator('li[data-check="kubevirt.placement"] .badge').textContent()).toBe('FAIL');
    expect(await page.locator('li[data-check="kubevirt.deployed"] .check-message').textContent()).toBe(`KubeVirt kubevirt/agg-page has an unknown phase "${PHASE}"`);
    // The nodes, worst first, with state, tier and the failing and warning checks.
    expect(await page.locator('#nodes tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-node')))).toEqual(['agg-page-xss', 'agg-page-ok-1', 'agg-page-ok-2']);
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 6)).toEqual(['agg-page-xss', 'not-ready', 'none', 'intel', '<b>6.8</b>', RUNTIME]);
    expect(cells[7]).toContain(`dev.kvm fail: /dev/kvm ${SCRIPT}`);
    expect(cells[7]).toContain(`kernel.version warn: ${IMG}`);
    // KubeVirt's permitted host devices: no node reports an inventory, so none provides it.
    const device = page.locator('#host-devices tbody tr');
    expect(await device.count()).toBe(1);
    expect(await device.getAttribute('class')).toBe('status-fail');
    const deviceCells = await device.locator('td').allTextContents();
    expect(deviceCells.slice(0, 4)).toEqual([`nvidia.com/${IMG}`, 'pci 10DE:2236', '0', '0']);
    expect(deviceCells[4]).toContain('agg-page-ok-1: no passthrough inventory in its report');
    // The VM canary, worst first: the silent class (3 failed runs), then the one that booted.
    expect(await page.locator('#canary-section').isVisible()).toBe(true);
    const canaryRows = page.locator('#canary tbody tr');
    expect(await canaryRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-class')))).toEqual([CANARY_CLASS, 'intel/xeon/hardware/5.14/metal']);
    expect(await canaryRows.evaluateAll((rows) => rows.map((r) => r.className))).toEqual(['status-fail', 'status-pass']);
    // Ages are counted from the report's evaluation time, which is a little after the results were written.
    const silent = await canaryRows.nth(0).locator('td').allTextContents();
    expect([silent[0], silent[1], silent[3], silent[4], silent[5]]).toEqual([CANARY_CLASS, '0 of 1 booted', '–', '3h ago', '3']);
    expect(silent[2]).toMatch(/^GuestSilent agg-page-ok-2 · 3[01]m ago/);
    expect(silent[2]?.endsWith(`agoconsole: ${SCRIPT}`)).toBe(true);
    const booted = await canaryRows.nth(1).locator('td').allTextContents();
    expect([booted[0], booted[1], booted[3], booted[5]]).toEqual(['intel/xeon/hardware/5.14/metal', '1 of 1 booted', '21s', '0']);
    expect(booted[2]).toMatch(/^Booted agg-page-ok-1 · 1[01]m ago$/);
    expect(booted[4]).toMatch(/^1[01]m ago$/);

    // Several refreshes later: still nothing executed, nothing injected.
    await waitFor('three refreshes', async () => (gateFetches >= 3 ? true : undefined), 15_000);
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('b').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('#banner').textContent()).toMatch(/^In sync with the cluster\./);
    await page.screenshot({ path: path.join(ARTIFACTS, 'aggregator-page.png'), fullPage: true });
  });

  it('says so when it cannot reach the aggregator, and keeps the last data', async () => {
    await harness?.stop();
    harness = undefined;
    await expect.poll(() => page.locator('#banner').textContent(), { timeout: 15_000 }).toMatch(/^Cannot reach the aggregator: .*Showing data fetched/);
    expect(await page.locator('#banner').getAttribute('class')).toBe('banner banner-error');
    expect(await page.locator('#nodes tbody tr').count()).toBe(3);
    expect(dialogs).toEqual([]);
  });

  it('says so when the aggregator has not synced with the cluster', async () => {
    const port = await closedPort();
    const kc = new KubeConfig();
    kc.loadFromFile(await writeKubeconfig(path.join(cp.dir, 'agg-page-unreachable.kubeconfig'), `https://127.0.0.1:${port}`, cp.caFile, { token: 'x' }));
    unsynced = await startAggregator(kc, { listen: true });
    const fresh = await browser.context.newPage();
    await fresh.goto(`${unsynced.url}/?refresh=1`);
    await expect.poll(() => fresh.locator('#banner').textContent(), { timeout: 15_000 }).toMatch(/^The aggregator has not synced with the cluster \(not synced yet: nodes, .*; last error: .*ECONNREFUSED.*\)\.$/);
    expect(await fresh.locator('#result').textContent()).toBe('NOT SYNCED');
    expect(await fresh.locator('#nodes tbody tr').count()).toBe(0);
    // No canary result to show: its table stays hidden.
    expect(await fresh.locator('#canary-section').isVisible()).toBe(false);
    await fresh.screenshot({ path: path.join(ARTIFACTS, 'aggregator-page-not-synced.png') });
  });
});
