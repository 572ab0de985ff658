/**
 * KubeVirt missing, half installed or not ready yet, against the real API server with KubeVirt's
 * own CRDs (test/lab/support/kubevirt-crds.ts): what the aggregator serves (API, summary, metrics,
 * /readyz) and what `virtgate gate`, a real process, prints and exits with, for each state in turn:
 * no KubeVirt CRD; the CRD but no KubeVirt object; an object virt-operator has not acted on; one it
 * is still deploying (the status virt-operator v1.9.0 writes); a deployed one without
 * spec.workloads.nodePlacement; and a CRD that no longer serves kubevirt.io/v1. Each step's
 * expectations were written by hand from the messages documented in docs/gate.md.
 */
import { ApiextensionsV1Api, CustomObjectsApi, type KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateResponse } from '../../aggregator/documents/api.ts';
import { summaryResponseSchema } from '../../aggregator/documents/api.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { OPERATOR_STATUS } from '../lab/aggregator/cluster-fixtures.ts';
import { runCli } from '../lab/cli.ts';
import { createValidatedNode, createKubeVirt, installKubeVirtCrds, removeOptionalCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { check, type Harness, startAggregator } from '../lab/support/aggregator-harness.ts';
import { seriesValue } from '../lab/processes/metrics-text.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
let admin: KubeConfig;
let harness: Harness;
const NOW = '2026-12-02T12:00:00Z';
const clock = new Date(NOW);
const READY = { 'virtgate.io/ready': 'true' };
const NODES = ['kv-state-1', 'kv-state-2', 'kv-state-3'];

const gateCli = () => runCli(['gate', '--kubeconfig', cp.adminKubeconfig, '--now', NOW]);

/** The checklist line of one check, as `virtgate gate` prints it (trimmed). */
function line(stdout: string, id: string): string {
  return stdout.split('\n').find((entry) => entry.includes(` ${id} `))?.trim() ?? `(no line for ${id})`;
}

/** A checklist line: the status word, the id padded to the longest id (kubevirt.emulation-consistent), the message. */
const row = (status: string, id: string, message: string) => `${status.padEnd(7)}  ${id.padEnd('kubevirt.emulation-consistent'.length)}  ${message}`;

async function metric(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const response = await harness.aggregator.app.inject({ url: '/metrics' });
  return seriesValue(response.body, name, labels);
}

function statuses(report: GateResponse): Record<string, string> {
  return Object.fromEntries(report.checks.filter((entry) => entry.status !== 'pass').map((entry) => [entry.id, entry.status]));
}

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
  await removeOptionalCrds(admin);
  await resetCluster(admin);
  for (const name of NODES) await createValidatedNode(admin, name, { node: { labels: READY }, report: { heartbeatAt: new Date(clock.getTime() - 60_000) } });
  harness = await startAggregator(admin, { now: () => clock });
});

afterAll(async () => {
  await harness?.stop();
  await removeOptionalCrds(admin);
  await resetCluster(admin);
});

describe('KubeVirt missing or not ready: the aggregator and virtgate gate say what is wrong and what to do', () => {
  it('no KubeVirt CRD: kubevirt.deployed fails (exit 1); the aggregator stays ready', async () => {
    const report = await harness.waitForGate('three ready nodes, no KubeVirt', (gate) => gate.readiness.counts.ready === 3);
    const message =
      "KubeVirt is not installed: the API server does not serve kubevirt.io/v1 kubevirts (no KubeVirt CRD); install virt-operator (the release's kubevirt-operator.yaml), then create a KubeVirt object (kubevirt-cr.yaml)";
    expect(check(report, 'kubevirt.deployed')).toMatchObject({ status: 'fail', message, evidence: { state: 'crd-absent' } });
    expect(statuses(report)).toEqual({
      'tuple.kubernetes-supported': 'unknown',
      'tuple.cdi-paired': 'unknown',
      'kubevirt.deployed': 'fail',
      'kubevirt.emulation-consistent': 'unknown',
      'kubevirt.confidential': 'unknown',
      'kubevirt.placement': 'unknown',
      'kubevirt.host-devices': 'unknown',
    });
    expect(report).toMatchObject({ result: 'fail', exitCode: 1, versions: { kubevirt: { state: 'absent', reason: 'KubeVirt is not installed' } } });
    // Not an aggregator fault: it is in sync, and says so.
    expect(await harness.readyz()).toMatchObject({ status: 200 });
    const summary = summaryResponseSchema.parse((await harness.aggregator.app.inject({ url: '/api/v1/summary' })).json());
    expect(summary.checks.notPassing[0]).toEqual({ id: 'kubevirt.deployed', status: 'fail', message });
    expect(await metric('virtgate_gate_check', { check: 'kubevirt.deployed', status: 'fail' })).toBe(1);
    expect(await metric('virtgate_gate_status', {})).toBe(2);

    const cli = await gateCli();
    expect(cli.code).toBe(1);
    expect(cli.stderr).toBe('');
    expect(line(cli.stdout, 'kubevirt.deployed')).toBe(row('FAIL', 'kubevirt.deployed', message));
    expect(line(cli.stdout, 'kubevirt.placement')).toBe(
      row('UNKNOWN', 'kubevirt.placement', 'KubeVirt is not installed: the API server does not serve kubevirt.io/v1 kubevirts (no KubeVirt CRD): no placement to check'),
    );
    expect(cli.stdout).toMatch(/^virtgate gate: Kubernetes v1\.36\.3, KubeVirt \(absent\), CDI \(absent\) on /);
    expect(cli.stdout.endsWith('Result: FAIL (exit 1)\n')).toBe(true);
  });

  it('the CRD but no KubeVirt object: kubevirt.deployed fails (exit 1) and says to create one', async () => {
    await installKubeVirtCrds(admin, { cdi: false });
    const message =
      "KubeVirt is not installed: the KubeVirt CRD exists but there is no KubeVirt object; virt-operator deploys nothing until one exists: create it in virt-operator's namespace (the release's kubevirt-cr.yaml)";
    const report = await harness.waitForGate('the KubeVirt CRD to be seen', (gate) => check(gate, 'kubevirt.deployed').evidence.state === 'cr-absent');
    expect(check(report, 'kubevirt.deployed')).toMatchObject({ status: 'fail', message });
    expect(report.exitCode).toBe(1);

    const cli = await gateCli();
    expect(cli.code).toBe(1);
    expect(line(cli.stdout, 'kubevirt.deployed')).toBe(row('FAIL', 'kubevirt.deployed', message));
  });

  it('an object virt-operator has not acted on (no status): unknown (exit 3), check virt-operator', async () => {
    await createKubeVirt(admin, { name: 'kubevirt', version: 'v1.9.0', nodePlacement: { nodeSelector: READY }, status: null });
    const message = 'KubeVirt kubevirt/kubevirt has no status yet: virt-operator has not acted on it; check that virt-operator is running (kubectl -n kubevirt get deployment virt-operator)';
    const report = await harness.waitForGate('the KubeVirt object to be seen', (gate) => check(gate, 'kubevirt.deployed').evidence.object === 'kubevirt/kubevirt');
    expect(check(report, 'kubevirt.deployed')).toMatchObject({ status: 'unknown', message, evidence: { phase: null, observedKubeVirtVersion: null } });
    expect(statuses(report)).toEqual({ 'tuple.kubernetes-supported': 'unknown', 'tuple.cdi-paired': 'unknown', 'kubevirt.deployed': 'unknown' });
    expect(report).toMatchObject({ result: 'unknown', exitCode: 3 });
    expect(await metric('virtgate_gate_check', { check: 'kubevirt.deployed', status: 'unknown' })).toBe(1);
    expect(await metric('virtgate_gate_status', {})).toBe(1);

    const cli = await gateCli();
    expect(cli.code).toBe(3);
    expect(line(cli.stdout, 'kubevirt.deployed')).toBe(row('UNKNOWN', 'kubevirt.deployed', message));
    expect(line(cli.stdout, 'tuple.kubernetes-supported')).toBe(
      row('UNKNOWN', 'tuple.kubernetes-supported', 'KubeVirt has not reported status.observedKubeVirtVersion yet: no KubeVirt version to check'),
    );
    expect(cli.stdout.endsWith('Result: UNKNOWN (exit 3)\n')).toBe(true);
  });

  it('still Deploying, as virt-operator v1.9.0 writes it: unknown (exit 3), wait for Available', async () => {
    await admin.makeApiClient(CustomObjectsApi).patchNamespacedCustomObjectStatus(
      { group: 'kubevirt.io', version: 'v1', namespace: 'kubevirt', plural: 'kubevirts', name: 'kubevirt', body: { status: OPERATOR_STATUS.deploying } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const message =
      "KubeVirt kubevirt/kubevirt is still Deploying v1.9.0 (Available=False, DeploymentInProgress: Deploying version v1.9.0 with registry quay.io/kubevirt): not ready yet; wait until virt-operator reports it Deployed and Available (kubectl -n kubevirt wait kubevirt/kubevirt --for=condition=Available --timeout=15m), else read virt-operator's log";
    const report = await harness.waitForGate('the Deploying status to be seen', (gate) => check(gate, 'kubevirt.deployed').evidence.phase === 'Deploying');
    expect(check(report, 'kubevirt.deployed')).toMatchObject({ status: 'unknown', message, evidence: { targetKubeVirtVersion: 'v1.9.0', availableReason: 'DeploymentInProgress' } });
    expect(report).toMatchObject({ result: 'unknown', exitCode: 3 });

    const cli = await gateCli();
    expect(cli.code).toBe(3);
    expect(line(cli.stdout, 'kubevirt.deployed')).toBe(row('UNKNOWN', 'kubevirt.deployed', message));
  });

  it('Deployed without spec.workloads.nodePlacement: says KubeVirt uses every node; pass (exit 0) while all are ready, fail (exit 1) once one is not', async () => {
    await resetCluster(admin);
    for (const name of NODES) await createValidatedNode(admin, name, { node: { labels: READY }, report: { heartbeatAt: new Date(clock.getTime() - 60_000) } });
    await createKubeVirt(admin, { name: 'kubevirt', version: 'v1.9.0', status: OPERATOR_STATUS.deployed });
    const pass = await harness.waitForGate('the deployed KubeVirt on three ready nodes', (gate) => gate.readiness.counts.ready === 3 && check(gate, 'kubevirt.deployed').status === 'pass');
    const passMessage =
      'spec.workloads.nodePlacement is not set, so KubeVirt uses every node without a taint it does not tolerate: 3 nodes, all ready now; set spec.workloads.nodePlacement.nodeSelector to {"virtgate.io/ready": "true"} to keep VMs off nodes that fail validation later';
    expect(check(pass, 'kubevirt.placement')).toMatchObject({ status: 'pass', message: passMessage, evidence: { nodePlacementSet: false, selected: 3 } });
    expect(pass).toMatchObject({ result: 'pass', exitCode: 0 });
    const ok = await gateCli();
    expect(ok.code).toBe(0);
    expect(line(ok.stdout, 'kubevirt.placement')).toBe(row('PASS', 'kubevirt.placement', passMessage));

    await createValidatedNode(admin, 'kv-state-bad', { node: { labels: { 'virtgate.io/ready': 'false' } }, report: { heartbeatAt: new Date(clock.getTime() - 60_000), ready: false } });
    const failMessage =
      'spec.workloads.nodePlacement is not set, so KubeVirt uses every node without a taint it does not tolerate, 1 node not ready among them: kv-state-bad (not-ready); set spec.workloads.nodePlacement.nodeSelector to {"virtgate.io/ready": "true"} so that VMs land only on validated nodes';
    const fail = await harness.waitForGate('the not-ready node to be seen', (gate) => gate.readiness.counts['not-ready'] === 1);
    expect(check(fail, 'kubevirt.placement')).toMatchObject({ status: 'fail', message: failMessage });
    expect(fail).toMatchObject({ result: 'fail', exitCode: 1 });
    const bad = await gateCli();
    expect(bad.code).toBe(1);
    expect(line(bad.stdout, 'kubevirt.placement')).toBe(row('FAIL', 'kubevirt.placement', failMessage));
  });

  it('a KubeVirt CRD that does not serve kubevirt.io/v1: unknown (exit 3), the same reason from the watch and from the one-shot read', async () => {
    const crds = admin.makeApiClient(ApiextensionsV1Api);
    const crd = await crds.readCustomResourceDefinition({ name: 'kubevirts.kubevirt.io' });
    const v1 = (crd.spec.versions ?? []).findIndex((version) => version.name === 'v1');
    expect(v1).toBeGreaterThanOrEqual(0);
    await crds.patchCustomResourceDefinition(
      { name: 'kubevirts.kubevirt.io', body: [{ op: 'replace', path: `/spec/versions/${v1}/served`, value: false }] },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    const message = 'KubeVirt cannot be read: CRD kubevirts.kubevirt.io exists but does not serve kubevirt.io/v1 (it serves v1alpha3); virtgate reads kubevirt.io/v1';
    const report = await harness.waitForGate('the CRD change to be seen', (gate) => check(gate, 'kubevirt.deployed').status === 'unknown');
    expect(check(report, 'kubevirt.deployed')).toMatchObject({ status: 'unknown', message });
    // The one-shot read gets a 404 for the LIST, then reads the CRD to say why.
    const cli = await waitFor('the API server to stop serving kubevirt.io/v1 kubevirts', async () => {
      const outcome = await gateCli();
      return outcome.code === 3 ? outcome : undefined;
    });
    expect(line(cli.stdout, 'kubevirt.deployed')).toBe(row('UNKNOWN', 'kubevirt.deployed', message));
    expect(cli.stdout.endsWith('Result: UNKNOWN (exit 3)\n')).toBe(true);
  });
});
