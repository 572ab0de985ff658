/**
 * The aggregator's outputs, from `virtgate aggregator` and `virtgate gate` run as real processes
 * against the real API server: the JSON API (checked against its schemas), the metrics text (the
 * documented series, with the values the cluster implies), a clean SIGTERM, and the gate's exit
 * codes 0 / 1 / 3 / 2.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponseSchema, gateResponseSchema, nodeResponseSchema, nodesResponseSchema, summaryResponseSchema } from '../../aggregator/documents/api.ts';
import { gateResultDocumentSchema } from '../../aggregator/documents/gate.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { writeKubeconfig } from '../lab/controlplane/kubeconfig.ts';
import { runCli } from '../lab/cli.ts';
import { createCdi, createKubeVirt, createValidatedNode, installKubeVirtCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { type AggregatorProcess, startAggregatorProcess } from '../lab/processes/launch.ts';
import { seriesValue } from '../lab/processes/metrics-text.ts';
import { closedPort } from '../lab/controlplane/ports.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { revisionOf, VIRTGATE_VERSION } from '../../core/package-info.ts';

const cp = useControlPlane();
let admin: KubeConfig;
let proc: AggregatorProcess | undefined;
const READY = { 'virtgate.io/ready': 'true' };
/** The day the version calendar is judged on: the expectations below were written for it. */
const CALENDAR_DATE = '2026-12-02';
const secondsAgo = (seconds: number, from = new Date()) => new Date(from.getTime() - seconds * 1000);

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
  await installKubeVirtCrds(admin);
  await resetCluster(admin);
  // Two ready nodes, one failing, one whose agent went quiet two hours ago; VMs only on ready=true.
  await createValidatedNode(admin, 'agg-out-ready-1', { node: { labels: READY }, report: { heartbeatAt: secondsAgo(60) } });
  await createValidatedNode(admin, 'agg-out-ready-2', { node: { labels: READY }, report: { heartbeatAt: secondsAgo(60), vendor: 'intel' } });
  await createValidatedNode(admin, 'agg-out-bad', { node: { labels: { 'virtgate.io/ready': 'false' } }, report: { heartbeatAt: secondsAgo(60), ready: false } });
  await createValidatedNode(admin, 'agg-out-stale', { node: { labels: READY }, report: { heartbeatAt: secondsAgo(7200) } });
  await createKubeVirt(admin, { name: 'agg-out', version: 'v1.9.0', nodePlacement: { nodeSelector: READY } });
  await createCdi(admin, 'agg-out', 'v1.66.0');
});

afterAll(async () => {
  await proc?.stop();
});

async function json(pathname: string): Promise<{ status: number; body: unknown; type: string }> {
  if (!proc) throw new Error('aggregator not running');
  const response = await proc.get(pathname);
  return { status: response.status, body: await response.json(), type: response.headers.get('content-type') ?? '' };
}

describe('virtgate aggregator (a real process)', () => {
  it('serves JSON that matches its documented schemas', async () => {
    // The calendar is judged as of the day the expectations below were written for.
    proc = await startAggregatorProcess(['--kubeconfig', cp.adminKubeconfig, '--calendar-date', CALENDAR_DATE]);
    await waitFor('/readyz', async () => ((await proc?.get('/readyz'))?.status === 200 ? true : undefined));
    const gate = await waitFor('the report to cover the four nodes', async () => {
      const { body } = await json('/api/v1/gate');
      const report = gateResponseSchema.parse(body);
      return report.readiness.total === 4 && report.versions.cdi.state === 'known' ? report : undefined;
    });
    expect(gate.result).toBe('fail');
    expect(gate.readiness.nodes.map((node) => `${node.name}:${node.state}`)).toEqual(['agg-out-bad:not-ready', 'agg-out-stale:unknown', 'agg-out-ready-1:ready', 'agg-out-ready-2:ready']);

    const summary = await json('/api/v1/summary');
    expect(summary.type).toMatch(/^application\/json/);
    const parsedSummary = summaryResponseSchema.parse(summary.body);
    expect(parsedSummary.nodes).toEqual({ total: 4, counts: { ready: 2, emulation: 0, 'not-ready': 1, unknown: 1 }, readyRatio: 0.5 });
    expect(parsedSummary.checks.notPassing.map((check) => `${check.id}=${check.status}`)).toEqual(['kubevirt.placement=fail', 'nodes.reports-fresh=warn']);
    expect(parsedSummary.aggregator).toMatchObject({ ready: true, synced: true, healthy: true, serverVersion: { gitVersion: 'v1.36.3' } });

    const nodes = nodesResponseSchema.parse((await json('/api/v1/nodes?state=unknown')).body);
    expect(nodes.nodes.map((node) => node.name)).toEqual(['agg-out-stale']);
    const one = nodeResponseSchema.parse((await json('/api/v1/nodes/agg-out-bad')).body);
    expect(one.node).toMatchObject({ state: 'not-ready', tier: 'none', cpuVendor: 'intel', containerRuntime: 'containerd://2.0.5' });
    expect(one.node.failingChecks.map((check) => check.id)).toEqual(['dev.kvm', 'dev.tun']);
    const missing = await json('/api/v1/nodes/agg-out-nope');
    expect(missing.status).toBe(404);
    expect(errorResponseSchema.parse(missing.body).error).toBe('not-found');
  });

  it('exports the documented metrics with the values the cluster implies', async () => {
    if (!proc) throw new Error('aggregator not running');
    const gate = gateResponseSchema.parse((await json('/api/v1/gate')).body);
    const response = await proc.get('/metrics');
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    const value = (name: string, labels: Record<string, string> = {}) => seriesValue(text, name, labels);
    expect([value('virtgate_cluster_nodes', { state: 'ready' }), value('virtgate_cluster_nodes', { state: 'emulation' }), value('virtgate_cluster_nodes', { state: 'not-ready' }), value('virtgate_cluster_nodes', { state: 'unknown' })]).toEqual([2, 0, 1, 1]);
    expect(value('virtgate_cluster_ready_ratio')).toBe(0.5);
    expect(value('virtgate_gate_check', { check: 'kubevirt.placement', status: 'fail' })).toBe(1);
    expect(value('virtgate_gate_check', { check: 'kubevirt.placement', status: 'pass' })).toBe(0);
    expect(value('virtgate_gate_check', { check: 'nodes.reports-fresh', status: 'warn' })).toBe(1);
    expect(value('virtgate_gate_check', { check: 'tuple.kubernetes-supported', status: 'pass' })).toBe(1);
    expect(value('virtgate_gate_result', { status: 'fail' })).toBe(1);
    expect(value('virtgate_gate_result', { status: 'pass' })).toBe(0);
    expect(value('virtgate_gate_status')).toBe(2);
    const eol = gate.checks.find((check) => check.id === 'tuple.kubernetes-eol')?.evidence.eol;
    expect(typeof eol).toBe('string');
    expect(value('virtgate_kubernetes_eol_timestamp_seconds')).toBe(Date.parse(`${String(eol)}T00:00:00Z`) / 1000);
    // The heartbeats written above, as timestamps: the ages Prometheus would compute with time().
    const age = (node: string) => Date.now() / 1000 - (value('virtgate_node_report_timestamp_seconds', { node }) ?? Number.NaN);
    expect(value('virtgate_node_report_timestamp_seconds', { node: 'agg-out-ready-1' })).toBe(
      Date.parse(gate.readiness.nodes.find((node) => node.name === 'agg-out-ready-1')?.heartbeatAt ?? '') / 1000,
    );
    expect(age('agg-out-ready-1')).toBeGreaterThanOrEqual(60);
    expect(age('agg-out-ready-1')).toBeLessThan(600);
    expect(age('agg-out-stale')).toBeGreaterThanOrEqual(7200);
    expect(value('virtgate_aggregator_recompute_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(value('virtgate_build_info', { version: VIRTGATE_VERSION, revision: revisionOf(process.env.VIRTGATE_REVISION) })).toBe(1);
    for (const kind of ['nodes', 'nodevalidations', 'crd/kubevirts.kubevirt.io', 'crd/cdis.cdi.kubevirt.io', 'crd/virtualmachineinstances.kubevirt.io', 'kubevirts', 'cdis']) {
      expect(value('virtgate_aggregator_watch_healthy', { kind }), kind).toBe(1);
      expect(value('virtgate_aggregator_lists_total', { kind }), kind).toBe(1);
    }
    const lastSync = value('virtgate_aggregator_last_sync_timestamp_seconds') ?? 0;
    expect(lastSync).toBeGreaterThan(Date.now() / 1000 - 600);
    expect(lastSync).toBeLessThanOrEqual(Date.now() / 1000 + 1);
  });

  it('exits 0 on SIGTERM', async () => {
    if (!proc) throw new Error('aggregator not running');
    expect(await proc.stop()).toBe(0);
    // It drained first (aggregator/http/drain.ts): kept-alive clients asked to reconnect, at most --shutdown-drain.
    expect(proc.logs.find((line) => line.msg === 'connections drained')).toMatchObject({ leftOpen: expect.any(Number) });
    expect(proc.logs.some((line) => line.msg === 'virtgate aggregator stopped')).toBe(true);
    proc = undefined;
  });

  it('exits 2 with one line on a bad setting', async () => {
    const outcome = await runCli(['aggregator', '--kubeconfig', cp.adminKubeconfig, '--stale-after', '5s']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe('virtgate: --stale-after: must be at least 60 s (agents refresh their heartbeat every few minutes)\n');
  });
});

describe('virtgate gate (a real process): exit codes', () => {
  const NOW = '2026-12-02T12:00:00Z';
  const at = secondsAgo(60, new Date(NOW));

  async function cluster(options: { docker?: boolean; useEmulation?: boolean }): Promise<void> {
    await resetCluster(admin);
    for (const n of [1, 2, 3]) {
      await createValidatedNode(admin, `agg-cli-${n}`, {
        node: { labels: READY, ...(options.docker && n === 3 ? { containerRuntimeVersion: 'docker://24.0.7' } : {}) },
        report: { heartbeatAt: at },
      });
    }
    await createKubeVirt(admin, { name: 'agg-cli', version: 'v1.9.0', nodePlacement: { nodeSelector: READY }, useEmulation: options.useEmulation ?? false });
    await createCdi(admin, 'agg-cli', 'v1.66.0');
  }

  const gate = (...args: string[]) => runCli(['gate', '--kubeconfig', cp.adminKubeconfig, '--now', NOW, ...args]);

  it('0 on pass, with a readable checklist', async () => {
    await cluster({});
    const outcome = await gate();
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^virtgate gate: Kubernetes v1\.36\.3, KubeVirt v1\.9\.0, CDI v1\.66\.0 on 2026-12-02T12:00:00\.000Z/);
    expect(outcome.stdout).toContain('  PASS     kubevirt.placement');
    expect(outcome.stdout).toContain('Nodes: 3 (ready 3, emulation 0, not-ready 0, unknown 0)');
    expect(outcome.stdout.endsWith('Result: PASS (exit 0)\n')).toBe(true);
  });

  it('1 on fail; --json prints the gate report', async () => {
    await cluster({ docker: true });
    const outcome = await gate('--json');
    expect(outcome.code).toBe(1);
    const report = gateResultDocumentSchema.parse(JSON.parse(outcome.stdout));
    expect(report).toMatchObject({ result: 'fail', exitCode: 1, evaluatedAt: '2026-12-02T12:00:00.000Z' });
    expect(report.checks.find((check) => check.id === 'nodes.runtime')?.status).toBe('fail');
  });

  it('3 on warn', async () => {
    await cluster({ useEmulation: true });
    const outcome = await gate();
    expect(outcome.code).toBe(3);
    expect(outcome.stdout).toContain('  WARN     kubevirt.emulation-consistent');
    expect(outcome.stdout.endsWith('Result: WARN (exit 3)\n')).toBe(true);
  });

  it('4 when the cluster cannot be reached (a retry may help), 2 when the kubeconfig is missing or a flag is bad', async () => {
    const port = await closedPort();
    const unreachable = await writeKubeconfig(`${cp.dir}/agg-unreachable.kubeconfig`, `https://127.0.0.1:${port}`, cp.caFile, { token: 'x' });
    const down = await runCli(['gate', '--kubeconfig', unreachable]);
    expect(down.code).toBe(4);
    expect(down.stdout).toBe('');
    expect(down.stderr).toMatch(new RegExp(`^virtgate: cannot reach the API server at https://127\\.0\\.0\\.1:${port} to read the API server version: .*ECONNREFUSED.*; check --kubeconfig and that the cluster is up\\n$`));

    const missing = await runCli(['gate', '--kubeconfig', `${cp.dir}/no-such.kubeconfig`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^virtgate: cannot load the kubeconfig: .*no-such\.kubeconfig.*\n$/);

    const context = await runCli(['gate', '--kubeconfig', cp.adminKubeconfig, '--context', 'no-such-context']);
    expect(context.code).toBe(2);
    expect(context.stderr).toMatch(/^virtgate: cannot load the kubeconfig: context "no-such-context" is not in the kubeconfig \(it has: .+\)\n$/);

    const bad = await runCli(['gate', '--kubeconfig', cp.adminKubeconfig, '--min-ready', '1.5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('virtgate: --min-ready: must be a whole number\n');
  });
});
