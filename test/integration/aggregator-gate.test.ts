/**
 * Every gate outcome through the running aggregator, against the real API server (v1.36.3): each
 * scenario empties the cluster, creates its Nodes, NodeValidations, KubeVirt and CDI objects, and
 * reads the result from GET /api/v1/gate once the watches have delivered them. The aggregator's
 * clock is injected, so end-of-life and staleness are reproducible.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateResponse } from '../../aggregator/documents/api.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import type { FakeNodeOptions } from '../lab/controlplane/identities.ts';
import { createCdi, createKubeVirt, createValidatedNode, installKubeVirtCrds, type KubeVirtOptions, type ReportOptions, removeOptionalCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { check, type Harness, nodeNames, startAggregator } from '../lab/support/aggregator-harness.ts';
import { installCrd } from '../lab/support/crds.ts';

const cp = useControlPlane();
let admin: KubeConfig;
let harness: Harness;
/** The aggregator's clock: the day the shipped version data was last checked, unless a scenario moves it. */
let clock = new Date('2026-12-02T12:00:00Z');
const ago = (seconds: number) => new Date(clock.getTime() - seconds * 1000);

const READY_LABELS = { 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware', 'virtgate.io/cpu-vendor': 'intel' };
const ONLY_VALIDATED = { nodeSelector: { 'virtgate.io/ready': 'true' } };

interface NodeSpec {
  name: string;
  node?: FakeNodeOptions;
  /** Overrides of a fresh, ready, hardware report; null: no report at all. */
  report?: Partial<ReportOptions> | null;
}

interface Scenario {
  nodes: NodeSpec[];
  kubevirt: Omit<KubeVirtOptions, 'name'> | null;
  cdi: string | null;
}

const readyNode = (name: string, extra: Partial<NodeSpec> = {}): NodeSpec => ({ name, node: { labels: READY_LABELS }, ...extra });

/**
 * Empties the cluster (and waits until the aggregator has seen it empty, so no report can mix two
 * scenarios), creates the scenario's objects, and waits for the report that covers all of them.
 */
async function run(id: string, scenario: Scenario): Promise<GateResponse> {
  await resetCluster(admin);
  await harness.waitForGate(`${id}: the aggregator to see an empty cluster`, (report) => report.readiness.total === 0 && report.versions.kubevirt.state === 'absent' && report.versions.cdi.state === 'absent');
  for (const spec of scenario.nodes) {
    await createValidatedNode(admin, spec.name, {
      ...(spec.node ? { node: spec.node } : {}),
      report: spec.report === null ? null : { heartbeatAt: ago(60), ...spec.report },
    });
  }
  const kubevirtName = `agg-${id}`;
  if (scenario.kubevirt) await createKubeVirt(admin, { name: kubevirtName, ...scenario.kubevirt });
  if (scenario.cdi) await createCdi(admin, `agg-${id}`, scenario.cdi);
  const names = scenario.nodes.map((spec) => spec.name).sort();
  const reports = scenario.nodes.filter((spec) => spec.report !== null).length;
  return harness.waitForGate(`${id}: the report to cover the scenario`, (report) => {
    const deployed = check(report, 'kubevirt.deployed').evidence;
    return (
      report.evaluatedAt === clock.toISOString() &&
      JSON.stringify(nodeNames(report)) === JSON.stringify(names) &&
      report.readiness.nodes.filter((node) => node.heartbeatAt !== null).length === reports &&
      (scenario.kubevirt ? deployed.object === `kubevirt/${kubevirtName}` && deployed.objects === 1 : report.versions.kubevirt.state === 'absent') &&
      (scenario.cdi ? report.versions.cdi.state === 'known' && report.versions.cdi.version === scenario.cdi : report.versions.cdi.state === 'absent')
    );
  });
}

const KUBEVIRT_19 = { version: 'v1.9.0', nodePlacement: ONLY_VALIDATED };
const threeReady = (id: string) => [1, 2, 3].map((n) => readyNode(`agg-${id}-${n}`));

function notPassing(report: GateResponse): Record<string, string> {
  return Object.fromEntries(report.checks.filter((entry) => entry.status !== 'pass').map((entry) => [entry.id, entry.status]));
}

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
  // KubeVirt and CDI are installed only after the aggregator starts (first test).
  await removeOptionalCrds(admin);
  await resetCluster(admin);
  harness = await startAggregator(admin, { now: () => clock });
});

afterAll(async () => {
  await harness?.stop();
});

describe('the aggregator against a real API server', () => {
  it('notices KubeVirt and CDI being installed after it started', async () => {
    const before = await harness.waitForGate('the first report', () => true);
    expect(before.aggregator).toMatchObject({ ready: true, synced: true, healthy: true });
    expect(before.versions.kubernetes).toEqual({ state: 'known', version: 'v1.36.3', minor: '1.36' });
    expect(check(before, 'kubevirt.deployed')).toMatchObject({ status: 'fail', evidence: { state: 'crd-absent' } });
    expect(before.aggregator.watches.map((watch) => watch.kind).sort()).toEqual(['crd/cdis.cdi.kubevirt.io', 'crd/kubevirts.kubevirt.io', 'crd/virtualmachineinstances.kubevirt.io', 'nodes', 'nodevalidations']);

    await installKubeVirtCrds(admin);
    await createKubeVirt(admin, { name: 'agg-late', ...KUBEVIRT_19 });
    await createCdi(admin, 'agg-late', 'v1.66.0');
    const after = await harness.waitForGate('KubeVirt and CDI to be seen', (report) => report.versions.kubevirt.state === 'known' && report.versions.cdi.state === 'known');
    expect(check(after, 'kubevirt.deployed')).toMatchObject({ status: 'pass', evidence: { object: 'kubevirt/agg-late', phase: 'Deployed' } });
    expect(after.versions.cdi).toMatchObject({ version: 'v1.66.0', minor: '1.66' });
    expect(after.aggregator.watches.map((watch) => watch.kind).sort()).toEqual(['cdis', 'crd/cdis.cdi.kubevirt.io', 'crd/kubevirts.kubevirt.io', 'crd/virtualmachineinstances.kubevirt.io', 'kubevirts', 'nodes', 'nodevalidations']);
  });

  it('passes a supported tuple on validated nodes (exit 0)', async () => {
    const report = await run('ok', { nodes: threeReady('ok'), kubevirt: KUBEVIRT_19, cdi: 'v1.66.0' });
    expect(notPassing(report)).toEqual({});
    expect(report).toMatchObject({ result: 'pass', exitCode: 0 });
    expect(check(report, 'tuple.kubernetes-supported').message).toBe('Kubernetes 1.36 is supported by KubeVirt 1.9 (1.34, 1.35, 1.36)');
    expect(report.readiness).toMatchObject({ total: 3, counts: { ready: 3, emulation: 0, 'not-ready': 0, unknown: 0 }, readyRatio: 1 });
  });

  it('fails an unsupported tuple: KubeVirt 1.7 on Kubernetes 1.36 (exit 1)', async () => {
    const report = await run('old-kv', { nodes: threeReady('old-kv'), kubevirt: { ...KUBEVIRT_19, version: 'v1.7.3' }, cdi: 'v1.66.0' });
    expect(notPassing(report)).toEqual({ 'tuple.kubernetes-supported': 'fail', 'tuple.cdi-paired': 'warn' });
    expect(check(report, 'tuple.kubernetes-supported').message).toBe("Kubernetes 1.36 is outside KubeVirt 1.7's supported window (1.32, 1.33, 1.34); KubeVirt 1.9 supports Kubernetes 1.36");
    expect(check(report, 'tuple.cdi-paired').evidence).toMatchObject({ cdiMinor: '1.66', pairedCdi: '1.64' });
    expect(report).toMatchObject({ result: 'fail', exitCode: 1 });
  });

  it('warns when end of life is near, and fails once it is past', async () => {
    clock = new Date('2027-05-01T12:00:00Z');
    const near = await run('eol-near', { nodes: threeReady('eol-near'), kubevirt: KUBEVIRT_19, cdi: 'v1.66.0' });
    expect(notPassing(near)).toEqual({ 'tuple.kubernetes-eol': 'warn' });
    expect(check(near, 'tuple.kubernetes-eol')).toMatchObject({ evidence: { eol: '2027-06-28', daysLeft: 58, confirmed: false } });
    expect(near).toMatchObject({ result: 'warn', exitCode: 3 });

    clock = new Date('2027-07-01T12:00:00Z');
    const past = await run('eol-past', { nodes: threeReady('eol-past'), kubevirt: KUBEVIRT_19, cdi: 'v1.66.0' });
    expect(notPassing(past)).toEqual({ 'tuple.kubernetes-eol': 'fail', 'tuple.data-fresh': 'warn' });
    expect(check(past, 'tuple.kubernetes-eol').message).toBe('Kubernetes 1.36 reached end of life on 2027-06-28 (inferred date), 3 days ago; upgrade the cluster');
    expect(past.result).toBe('fail');
    clock = new Date('2026-12-02T12:00:00Z');
  });

  it('fails a placement that selects a failing node', async () => {
    const report = await run('place', {
      nodes: [...threeReady('place'), { name: 'agg-place-bad', node: { labels: { 'virtgate.io/ready': 'false' } }, report: { ready: false } }],
      // No nodeSelector: KubeVirt's workloads go to every node, the failing one included.
      kubevirt: { version: 'v1.9.0' },
      cdi: 'v1.66.0',
    });
    expect(notPassing(report)).toEqual({ 'kubevirt.placement': 'fail' });
    const placement = check(report, 'kubevirt.placement');
    expect(placement.message).toContain('spec.workloads.nodePlacement is not set, so KubeVirt uses every node without a taint it does not tolerate, 1 node not ready among them: agg-place-bad (not-ready)');
    expect(placement.message).toContain('set spec.workloads.nodePlacement.nodeSelector to {"virtgate.io/ready": "true"}');
    expect(placement.evidence).toMatchObject({ selected: 4, selectedReady: 3, selectedNotReady: ['agg-place-bad (not-ready)'], nodePlacementSet: false });
    expect(report.readiness.nodes[0]).toMatchObject({ name: 'agg-place-bad', state: 'not-ready', tier: 'none' });
  });

  it('warns on useEmulation while hardware nodes are ready (exit 3)', async () => {
    const report = await run('emul', { nodes: threeReady('emul'), kubevirt: { ...KUBEVIRT_19, useEmulation: true }, cdi: 'v1.66.0' });
    expect(notPassing(report)).toEqual({ 'kubevirt.emulation-consistent': 'warn' });
    expect(check(report, 'kubevirt.emulation-consistent').evidence).toEqual({ useEmulation: true, hardwareReady: 3, emulationReady: 0 });
    expect(report).toMatchObject({ result: 'warn', exitCode: 3 });
  });

  it('fails with a single ready node: nothing to live-migrate to', async () => {
    const report = await run('single', { nodes: [readyNode('agg-single-1')], kubevirt: KUBEVIRT_19, cdi: 'v1.66.0' });
    expect(notPassing(report)).toEqual({ 'nodes.min-ready': 'fail', 'nodes.migration-pairs': 'warn' });
    expect(check(report, 'nodes.min-ready').evidence).toEqual({ ready: 1, emulation: 0, total: 1, minReady: 2 });
  });

  it('fails a node that runs docker', async () => {
    const nodes = threeReady('docker');
    nodes[2] = readyNode('agg-docker-3', { node: { labels: READY_LABELS, containerRuntimeVersion: 'docker://24.0.7' } });
    const report = await run('docker', { nodes, kubevirt: KUBEVIRT_19, cdi: 'v1.66.0' });
    expect(notPassing(report)).toEqual({ 'nodes.runtime': 'fail' });
    expect(check(report, 'nodes.runtime')).toMatchObject({
      message: 'KubeVirt needs containerd or CRI-O; 1 node runs another runtime: agg-docker-3 (docker://24.0.7)',
      evidence: { byRuntime: { containerd: 2, docker: 1 } },
    });
  });

  it('treats a stale report as unknown, and fails placement that still selects that node', async () => {
    const nodes = threeReady('stale');
    nodes[1] = readyNode('agg-stale-2', { report: { heartbeatAt: ago(7200) } });
    const report = await run('stale', { nodes, kubevirt: KUBEVIRT_19, cdi: 'v1.66.0' });
    expect(notPassing(report)).toEqual({ 'nodes.reports-fresh': 'warn', 'kubevirt.placement': 'fail' });
    expect(report.readiness.nodes[0]).toMatchObject({ name: 'agg-stale-2', state: 'unknown', unknownCause: 'stale', tier: 'hardware', heartbeatAgeSeconds: 7200 });
    expect(check(report, 'nodes.reports-fresh').message).toBe('1 node has no fresh, valid report: agg-stale-2 (stale)');
    expect(check(report, 'kubevirt.placement').evidence).toMatchObject({ selectedNotReady: ['agg-stale-2 (unknown)'] });
  });
});
