/**
 * End to end: the real Prometheus server (Debian `prometheus`) scrapes real agent processes and the
 * real aggregator process on loopback, from a generated config, and evaluates the chart's own alert
 * rules (rendered by helm). Everything is asserted through Prometheus's HTTP API, as a dashboard or
 * Alertmanager would see it:
 *
 * - prom-hw, prom-hw2: hardware hosts (intel-metal, rhel9), ready;
 * - prom-emu: an emulation-only host (no-vmx), not ready;
 * - prom-stale: a Node whose report's heartbeat is two hours old and whose agent is gone (no
 *   agent process: the report is written as the agent would have left it).
 *
 * The rules' `for:` durations are shortened through the chart's own values
 * (`monitoring.prometheusRule.for.*`), so an alert that should fire does so within seconds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GateResponse, gateResponseSchema } from '../../aggregator/documents/api.ts';
import { findManifest, renderChart } from '../lab/chart/helm.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode } from '../lab/controlplane/identities.ts';
import { PrometheusServer, type Rule } from '../lab/e2e/prometheus-server.ts';
import { buildHost, type BuiltHost, type HostProfile } from '../lab/hosts/build-host.ts';
import { agentIdentity } from '../lab/support/agent-identity.ts';
import { type AgentProcess, startAgentProcess } from '../lab/processes/launch.ts';
import { createValidatedNode, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { type AggregatorProcess, startAggregatorProcess } from '../lab/processes/launch.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { VIRTGATE_VERSION } from '../../core/package-info.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();

const AGENT_NODES: Array<{ name: string; profile: HostProfile; ready: 0 | 1; tier: string }> = [
  { name: 'prom-hw', profile: 'intel-metal', ready: 1, tier: 'hardware' },
  { name: 'prom-hw2', profile: 'rhel9', ready: 1, tier: 'hardware' },
  { name: 'prom-emu', profile: 'no-vmx', ready: 0, tier: 'emulation' },
];
const STALE_NODE = 'prom-stale';
/** Gate checks that have an alert of their own, so VirtgateGateFailing leaves them out (docs/metrics.md). */
const OWN_ALERT_CHECKS = ['nodes.min-ready', 'nodes.reports-fresh', 'tuple.kubernetes-eol'];
/** The day the version calendar is judged on (the version data's `updated` day). */
const CALENDAR_DATE = '2026-12-02';
const GATE_STATUS_VALUE: Record<string, number> = { pass: 0, warn: 1, unknown: 1, fail: 2 };
/** Kubernetes 1.36's end of life in data/versions.yaml (the control plane is v1.36.3), 00:00 UTC, Unix seconds. */
const EOL_1_36_SECONDS = Date.UTC(2027, 5, 28) / 1000;
/** The chart's default `eolWarningDays`. */
const EOL_WARNING_DAYS = 90;

/**
 * Which end-of-life alert this cluster deserves at Prometheus's own time(): the alerts compare the
 * end-of-life date with Prometheus's clock, not with the aggregator's calendar date, so the
 * expectation is worked out here by hand from that clock (the same on any day the test runs).
 */
function expectedEolAlerts(prometheusNowSeconds: number): string[] {
  const daysLeft = Math.ceil((EOL_1_36_SECONDS - prometheusNowSeconds) / 86_400);
  if (daysLeft <= 0) return ['VirtgateKubernetesPastEndOfLife'];
  return daysLeft < EOL_WARNING_DAYS ? ['VirtgateKubernetesEndOfLifeApproaching'] : [];
}

const agents: AgentProcess[] = [];
const hostDirs: string[] = [];
let aggregator: AggregatorProcess | undefined;
let prometheus: PrometheusServer | undefined;

const hostPort = (url: string) => new URL(url).host;
const byLabel = (samples: Array<{ labels: Record<string, string>; value: number }>, label: string) =>
  Object.fromEntries(samples.map((sample) => [sample.labels[label] ?? '', sample.value]));
/** Same keys with the same values, in any order. */
const sameEntries = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

function prom(): PrometheusServer {
  if (!prometheus) throw new Error('Prometheus did not start');
  return prometheus;
}

async function gate(): Promise<GateResponse> {
  if (!aggregator) throw new Error('the aggregator did not start');
  const response = await aggregator.get('/api/v1/gate');
  if (response.status !== 200) throw new Error(`GET /api/v1/gate: HTTP ${response.status}`);
  return gateResponseSchema.parse(await response.json());
}

async function ruleGroups(): Promise<unknown[]> {
  const shortFor = ['gateFailing', 'tooFewReadyNodes', 'nodeNotReady', 'reportStale', 'kubernetesEndOfLife'].flatMap((key) => [
    '--set',
    `monitoring.prometheusRule.for.${key}=1s`,
  ]);
  const objects = await renderChart(cp.binDir, ['--set', 'monitoring.prometheusRule.enabled=true', ...shortFor]);
  return findManifest<{ spec: { groups: unknown[] } }>(objects, 'PrometheusRule').spec.groups;
}

beforeAll(async () => {
  await installCrd(admin);
  // The aggregator's counts cover every node in the cluster: start from an empty one.
  await resetCluster(admin);
  const hosts: BuiltHost[] = [];
  for (const node of AGENT_NODES) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `${node.name}-`));
    hostDirs.push(dir);
    hosts.push(await buildHost(dir, node.profile));
    await createNode(admin, node.name);
  }
  await createValidatedNode(admin, STALE_NODE, { report: { heartbeatAt: new Date(Date.now() - 2 * 3600_000), ready: true, tier: 'hardware' } });
  for (const [index, node] of AGENT_NODES.entries()) {
    const identity = await agentIdentity(admin, cp, node.name);
    agents.push(
      await startAgentProcess(['--node-name', node.name, '--kubeconfig', identity.kubeconfig, ...(hosts[index]?.cliArgs ?? []), '--no-vhv', '--interval', '10s', '--jitter', '0']),
    );
  }
  // The alert assertions below depend on the calendar (1.36 far from end of life): judge it as of
  // a fixed day, so the test means the same thing on any date.
  aggregator = await startAggregatorProcess(['--kubeconfig', cp.adminKubeconfig, '--calendar-date', CALENDAR_DATE]);
  prometheus = await PrometheusServer.start({
    jobs: [
      { job: 'virtgate-agent', targets: agents.map((agent) => `127.0.0.1:${agent.port}`) },
      { job: 'virtgate-aggregator', targets: [hostPort(aggregator.url)] },
    ],
    ruleGroups: await ruleGroups(),
  });
});

afterAll(async () => {
  await prometheus?.stop();
  await Promise.all(agents.map((agent) => agent.stop()));
  await aggregator?.stop();
  const core = admin.makeApiClient(CoreV1Api);
  for (const node of [...AGENT_NODES.map((n) => n.name), STALE_NODE]) await core.deleteNode({ name: node }).catch(() => undefined);
  await Promise.all(hostDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('Prometheus scraping virtgate, end to end', () => {
  it('scrapes every agent and the aggregator (targets up)', async () => {
    const targets = await waitFor('every target to be up', async () => {
      const all = await prom().targets();
      return all.length === 4 && all.every((target) => target.health === 'up') ? all : undefined;
    });
    expect(targets.map((target) => target.labels.job).sort()).toEqual(['virtgate-agent', 'virtgate-agent', 'virtgate-agent', 'virtgate-aggregator']);
  });

  it('stores each agent\'s verdict as the documented series, matching each fixture host', async () => {
    const expectedReady = Object.fromEntries(AGENT_NODES.map((node) => [node.name, node.ready]));
    // An agent's gauges read 0 until its first probe ends: wait for the verdicts to arrive.
    let last: Record<string, number> = {};
    await waitFor(`virtgate_node_ready to become ${JSON.stringify(expectedReady)}`, async () => {
      last = byLabel(await prom().query('virtgate_node_ready'), 'node');
      return sameEntries(last, expectedReady) ? true : undefined;
    }).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; last: ${JSON.stringify(last)}`);
    });

    const kvmFail = byLabel(await prom().query('virtgate_check_status{check="dev.kvm",status="fail"}'), 'node');
    expect(kvmFail).toEqual({ 'prom-hw': 0, 'prom-hw2': 0, 'prom-emu': 1 });
    const tiers = Object.fromEntries((await prom().query('virtgate_node_tier == 1')).map((sample) => [sample.labels.node, sample.labels.tier]));
    expect(tiers).toEqual(Object.fromEntries(AGENT_NODES.map((node) => [node.name, node.tier])));
    expect(byLabel(await prom().query('virtgate_probe_conclusive'), 'node')).toEqual({ 'prom-hw': 1, 'prom-hw2': 1, 'prom-emu': 1 });
    // Every agent patched its Node through the API server at least once, and the server said 200.
    const writes = byLabel(await prom().query('virtgate_agent_api_writes_total{resource="nodes",code="200"}'), 'node');
    for (const node of AGENT_NODES) expect(writes[node.name], node.name).toBeGreaterThanOrEqual(1);
    // Every process says which build it runs, and the agents export process metrics too.
    const builds = await prom().query('count by (job, version) (virtgate_build_info)');
    expect(Object.fromEntries(builds.map((sample) => [sample.labels.job, [sample.labels.version, sample.value]]))).toEqual({
      'virtgate-agent': [VIRTGATE_VERSION, 3],
      'virtgate-aggregator': [VIRTGATE_VERSION, 1],
    });
    expect(Object.keys(byLabel(await prom().query('process_resident_memory_bytes{job="virtgate-agent"}'), 'node')).sort()).toEqual(AGENT_NODES.map((node) => node.name).sort());
    // Every sample of an agent carries its job and instance, as a PodMonitor scrape would.
    const jobs = new Set((await prom().query('virtgate_node_ready')).map((sample) => sample.labels.job));
    expect([...jobs]).toEqual(['virtgate-agent']);
  });

  it('stores the aggregator\'s cluster view: node counts, report ages, and the gate as the aggregator computed it', async () => {
    const counts = await waitFor('virtgate_cluster_nodes to count all four nodes', async () => {
      const samples = byLabel(await prom().query('virtgate_cluster_nodes'), 'state');
      return samples.ready === 2 && samples.unknown === 1 && samples['not-ready'] === 1 ? samples : undefined;
    });
    expect(counts).toEqual({ ready: 2, emulation: 0, 'not-ready': 1, unknown: 1 });
    expect((await prom().query('virtgate_cluster_ready_ratio'))[0]?.value).toBe(0.5);
    // Ages as the alerts compute them: time() minus the heartbeat's timestamp.
    const ages = byLabel(await prom().query('time() - virtgate_node_report_timestamp_seconds'), 'node');
    expect(ages[STALE_NODE]).toBeGreaterThan(7000);
    for (const node of AGENT_NODES) expect(ages[node.name], node.name).toBeLessThan(1800);
    expect((await prom().query('virtgate_kubernetes_eol_timestamp_seconds'))[0]?.value).toBe(EOL_1_36_SECONDS);
    expect((await prom().query('virtgate_aggregator_recompute_duration_seconds_count'))[0]?.value).toBeGreaterThanOrEqual(1);

    // The gate as Prometheus stored it equals the gate the aggregator serves as JSON.
    const matched = await waitFor('Prometheus\'s gate series to match /api/v1/gate', async () => {
      const report = await gate();
      const status = (await prom().query('virtgate_gate_status'))[0]?.value;
      const checks = Object.fromEntries((await prom().query('virtgate_gate_check == 1')).map((sample) => [sample.labels.check, sample.labels.status]));
      const expected = Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
      return status === GATE_STATUS_VALUE[report.result] && sameEntries(checks, expected) ? { report, checks } : undefined;
    });
    expect(Object.keys(matched.checks).sort()).toEqual(matched.report.checks.map((check) => check.id).sort());
    expect(matched.checks['nodes.reports-fresh']).toBe('warn');
    const result = byLabel(await prom().query('virtgate_gate_result == 1'), 'status');
    expect(Object.keys(result)).toEqual([matched.report.result]);
  });

  it('loads the chart\'s alert rules, evaluates them, fires the alerts this cluster deserves and no others', async () => {
    const alertOf = (rules: Rule[], alert: string) => {
      const rule = rules.find((candidate) => candidate.name === alert);
      if (!rule) throw new Error(`rule ${alert} is not loaded`);
      return rule;
    };
    const eolAlerts = expectedEolAlerts((await prom().query('vector(time())'))[0]?.value ?? Number.NaN);
    // Firing needs the condition to hold over two evaluations (for: 1s), a few seconds after the first scrape.
    const rules = await waitFor('the expected alerts to fire', async () => {
      const all = await prom().rules();
      return ['VirtgateNodeNotReady', 'VirtgateReportStale', ...eolAlerts].every((alert) => alertOf(all, alert).state === 'firing') ? all : undefined;
    }, 60_000, 500);
    expect(rules.map((rule) => rule.name)).toEqual([
      'VirtgateGateFailing',
      'VirtgateTooFewReadyNodes',
      'VirtgateNodeNotReady',
      'VirtgateReportStale',
      'VirtgateKubernetesEndOfLifeApproaching',
      'VirtgateKubernetesPastEndOfLife',
      'VirtgateMetricsAbsent',
    ]);
    for (const rule of rules) {
      expect(rule.type, rule.name).toBe('alerting');
      expect(rule.health, `${rule.name}: ${rule.lastError ?? ''}`).toBe('ok');
    }

    expect(alertOf(rules, 'VirtgateReportStale').alerts?.map((alert) => alert.labels.node)).toEqual([STALE_NODE]);
    expect(alertOf(rules, 'VirtgateNodeNotReady').alerts?.[0]?.value).toBe('1e+00');
    // Two nodes are ready (the minimum), the aggregator is scraped, and an end-of-life alert fires
    // only when Prometheus's clock says so.
    const quietEol = ['VirtgateKubernetesEndOfLifeApproaching', 'VirtgateKubernetesPastEndOfLife'].filter((alert) => !eolAlerts.includes(alert));
    for (const quiet of ['VirtgateTooFewReadyNodes', 'VirtgateMetricsAbsent', ...quietEol]) {
      expect(alertOf(rules, quiet).state, quiet).toBe('inactive');
    }
    // One VirtgateGateFailing alert per failing check that has no alert of its own — here at least
    // kubevirt.deployed, since this cluster has no KubeVirt.
    const failing = (await gate()).checks.filter((check) => check.status === 'fail' && !OWN_ALERT_CHECKS.includes(check.id)).map((check) => check.id).sort();
    expect(failing).toContain('kubevirt.deployed');
    const gateAlerts = await waitFor('VirtgateGateFailing to fire for each failing check', async () => {
      const alerts = alertOf(await prom().rules(), 'VirtgateGateFailing').alerts ?? [];
      return alerts.length === failing.length && alerts.every((alert) => alert.state === 'firing') ? alerts : undefined;
    });
    expect(gateAlerts.map((alert) => alert.labels.check).sort()).toEqual(failing);
    expect(gateAlerts[0]?.labels.severity).toBe('critical');
  });

  it('stops Prometheus cleanly: the process is gone', async () => {
    const pid = await prom().pid();
    expect(() => process.kill(pid, 0)).not.toThrow();
    await prom().stop();
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
