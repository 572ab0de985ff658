import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GATE_CONFIG, type GateConfig } from '../model/config.ts';
import type { ClusterSnapshot } from '../model/snapshot.ts';
import { healthyCluster, listed, NOW, OPERATOR_STATUS, rawCdi, rawKubeVirt, rawNode, rawReport, secondsAgo } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { DEFAULT_VERSIONS_FILE } from '../versions/load.ts';
import { parseVersionData } from '../versions/parse.ts';
import { gate } from './gate.ts';
import { GATE_CHECK_IDS, type GateCheckId, type GateResult } from '../documents/gate.ts';

const DATA = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');

function run(overrides: Partial<ClusterSnapshot> = {}, config: Partial<GateConfig> = {}, now = NOW): GateResult {
  return gate(healthyCluster(overrides), DATA, { ...DEFAULT_GATE_CONFIG, ...config }, now);
}

function check(report: GateResult, id: GateCheckId) {
  const found = report.checks.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
}

/** Every check that did not pass, as `id=status`. */
function notPassing(report: GateResult): string[] {
  return report.checks.filter((candidate) => candidate.status !== 'pass').map((candidate) => `${candidate.id}=${candidate.status}`);
}

const placedOnReady = { nodeSelector: { 'virtgate.io/ready': 'true' } };

describe('gate: a healthy cluster', () => {
  it('passes every check, in the documented order, with exit code 0', () => {
    const report = run();
    expect(report.checks.map((candidate) => candidate.id)).toEqual([...GATE_CHECK_IDS]);
    expect(notPassing(report)).toEqual([]);
    expect(report).toMatchObject({ result: 'pass', exitCode: 0, evaluatedAt: '2026-12-02T12:00:00.000Z' });
    expect(report.versions).toMatchObject({ kubernetes: { state: 'known', minor: '1.36' }, kubevirt: { minor: '1.9' }, cdi: { minor: '1.66' }, dataUpdated: DATA.updated });
    expect(report.readiness.counts).toEqual({ ready: 3, emulation: 0, 'not-ready': 0, unknown: 0 });
  });
});

describe('gate: the version tuple', () => {
  it('fails an unsupported tuple and names the KubeVirt releases that would fit', () => {
    const report = run({ kubevirt: listed(rawKubeVirt({ version: 'v1.7.3', nodePlacement: placedOnReady })), cdi: listed(rawCdi('v1.64.1')) });
    expect(notPassing(report)).toEqual(['tuple.kubernetes-supported=fail']);
    expect(check(report, 'tuple.kubernetes-supported').message).toBe(
      "Kubernetes 1.36 is outside KubeVirt 1.7's supported window (1.32, 1.33, 1.34); KubeVirt 1.9 supports Kubernetes 1.36",
    );
    expect(report).toMatchObject({ result: 'fail', exitCode: 1 });
  });

  it('fails Kubernetes 1.34 on 2026-12-02: past its end of life (2026-10-27)', () => {
    const report = run({ serverGitVersion: 'v1.34.6' });
    expect(notPassing(report)).toEqual(['tuple.kubernetes-eol=fail']);
    expect(check(report, 'tuple.kubernetes-eol')).toMatchObject({
      message: 'Kubernetes 1.34 reached end of life on 2026-10-27, 36 days ago; upgrade the cluster',
      evidence: { eol: '2026-10-27', confirmed: true, daysLeft: -36 },
    });
  });

  it('warns for EKS Kubernetes 1.35 on 2026-12-02: within 90 days of 2027-02-28, an inferred date', () => {
    const report = run({ serverGitVersion: 'v1.35.2-eks-4f2a9b1' });
    expect(notPassing(report)).toEqual(['tuple.kubernetes-eol=warn']);
    expect(check(report, 'tuple.kubernetes-eol').message).toBe('Kubernetes 1.35 reaches end of life on 2027-02-28 (inferred date), in 88 days; plan the upgrade');
    expect(report).toMatchObject({ result: 'warn', exitCode: 3 });
  });

  it('judges the calendar as of the configured calendar date, while report ages keep the evaluation time', () => {
    // Evaluated two years after the fixtures' date, with the calendar pinned to it: the same verdict.
    const later = new Date('2028-12-02T12:00:00Z');
    const pinned = run({ serverGitVersion: 'v1.35.2-eks-4f2a9b1' }, { calendarDate: '2026-12-02', staleAfterSeconds: 3 * 365 * 86_400 }, later);
    expect(check(pinned, 'tuple.kubernetes-eol').message).toBe('Kubernetes 1.35 reaches end of life on 2027-02-28 (inferred date), in 88 days; plan the upgrade');
    expect(check(pinned, 'tuple.data-fresh').status).toBe('pass');
    expect(pinned.evaluatedAt).toBe('2028-12-02T12:00:00.000Z');
    // Without the pin, the same cluster on that day is past end of life and its data is old.
    const unpinned = run({ serverGitVersion: 'v1.35.2-eks-4f2a9b1' }, { staleAfterSeconds: 3 * 365 * 86_400 }, later);
    expect(check(unpinned, 'tuple.kubernetes-eol').status).toBe('fail');
    expect(check(unpinned, 'tuple.data-fresh').status).toBe('warn');
    // Report ages follow the evaluation time, not the calendar date: two years old is stale by default.
    const stale = run({}, { calendarDate: '2026-12-02' }, later);
    expect(stale.readiness.counts.unknown).toBe(3);
  });

  it('follows the configured warning window', () => {
    expect(check(run({ serverGitVersion: 'v1.35.2' }, { eolWarnDays: 30 }), 'tuple.kubernetes-eol').status).toBe('pass');
  });

  it('fails a Kubernetes minor older than every minor the data lists, and is unknown for one newer', () => {
    expect(check(run({ serverGitVersion: 'v1.21.0' }), 'tuple.kubernetes-eol')).toMatchObject({ status: 'fail', message: expect.stringMatching(/older than 1\.25/) });
    expect(check(run({ serverGitVersion: 'v1.40.0' }), 'tuple.kubernetes-eol').status).toBe('unknown');
  });

  it('is unknown for a KubeVirt minor the data does not know', () => {
    const report = run({ kubevirt: listed(rawKubeVirt({ version: 'v1.12.0', nodePlacement: placedOnReady })) });
    expect(check(report, 'tuple.kubernetes-supported')).toMatchObject({ status: 'unknown', message: expect.stringMatching(/no support window for KubeVirt 1\.12/) });
    expect(check(report, 'tuple.cdi-paired').status).toBe('unknown');
    expect(report.exitCode).toBe(3);
  });

  it('warns for a CDI that is not the paired one', () => {
    const report = run({ cdi: listed(rawCdi('v1.64.0')) });
    expect(notPassing(report)).toEqual(['tuple.cdi-paired=warn']);
    expect(check(report, 'tuple.cdi-paired').evidence).toMatchObject({ cdiMinor: '1.64', pairedCdi: '1.66', note: expect.stringMatching(/planned/) });
  });

  it('passes cdi-paired when CDI is not installed', () => {
    expect(check(run({ cdi: { state: 'crd-absent' } }), 'tuple.cdi-paired')).toMatchObject({ status: 'pass', message: expect.stringMatching(/^CDI is not installed/) });
  });

  it('warns when the version data is older than 180 days', () => {
    const later = new Date('2027-06-01T00:00:00Z');
    const report = run({ serverGitVersion: 'v1.36.0' }, {}, later);
    expect(check(report, 'tuple.data-fresh')).toMatchObject({ status: 'warn', evidence: { updated: '2026-12-02', ageDays: 181, maxAgeDays: 180 } });
    expect(check(run({}, {}, new Date('2027-05-31T23:59:59Z')), 'tuple.data-fresh').status).toBe('pass');
  });
});

describe('gate: KubeVirt', () => {
  it('fails when KubeVirt is not installed, yet still evaluates end of life', () => {
    for (const kubevirt of [{ state: 'crd-absent' } as const, listed()]) {
      const report = run({ kubevirt, serverGitVersion: 'v1.34.1' });
      expect(check(report, 'kubevirt.deployed')).toMatchObject({ status: 'fail', message: expect.stringMatching(/^KubeVirt is not installed/) });
      expect(check(report, 'tuple.kubernetes-supported').status).toBe('unknown');
      expect(check(report, 'tuple.cdi-paired').status).toBe('unknown');
      expect(check(report, 'tuple.kubernetes-eol').status).toBe('fail');
      expect(check(report, 'kubevirt.placement').status).toBe('unknown');
      expect(report.exitCode).toBe(1);
    }
  });

  it('says what to install: virt-operator without its CRD, a KubeVirt object without one', () => {
    expect(check(run({ kubevirt: { state: 'crd-absent' } }), 'kubevirt.deployed').message).toBe(
      "KubeVirt is not installed: the API server does not serve kubevirt.io/v1 kubevirts (no KubeVirt CRD); install virt-operator (the release's kubevirt-operator.yaml), then create a KubeVirt object (kubevirt-cr.yaml)",
    );
    expect(check(run({ kubevirt: listed() }), 'kubevirt.deployed').message).toBe(
      "KubeVirt is not installed: the KubeVirt CRD exists but there is no KubeVirt object; virt-operator deploys nothing until one exists: create it in virt-operator's namespace (the release's kubevirt-cr.yaml)",
    );
    expect(check(run({ kubevirt: listed() }), 'kubevirt.placement').message).toBe('KubeVirt is not installed: the KubeVirt CRD exists but there is no KubeVirt object: no placement to check');
  });

  it('is unknown (exit 3) while virt-operator has not finished: no status yet, or Deploying', () => {
    const fresh = run({ kubevirt: listed(rawKubeVirt({ nodePlacement: placedOnReady, status: {} })) });
    expect(notPassing(fresh)).toEqual(['tuple.kubernetes-supported=unknown', 'tuple.cdi-paired=unknown', 'kubevirt.deployed=unknown']);
    expect(check(fresh, 'kubevirt.deployed').message).toBe(
      'KubeVirt kubevirt/kubevirt has no status yet: virt-operator has not acted on it; check that virt-operator is running (kubectl -n kubevirt get deployment virt-operator)',
    );
    expect(fresh).toMatchObject({ result: 'unknown', exitCode: 3 });

    const deploying = run({ kubevirt: listed(rawKubeVirt({ nodePlacement: placedOnReady, status: OPERATOR_STATUS.deploying })) });
    expect(notPassing(deploying)).toEqual(['tuple.kubernetes-supported=unknown', 'tuple.cdi-paired=unknown', 'kubevirt.deployed=unknown']);
    expect(check(deploying, 'kubevirt.deployed')).toEqual({
      id: 'kubevirt.deployed',
      status: 'unknown',
      message:
        "KubeVirt kubevirt/kubevirt is still Deploying v1.9.0 (Available=False, DeploymentInProgress: Deploying version v1.9.0 with registry quay.io/kubevirt): not ready yet; wait until virt-operator reports it Deployed and Available (kubectl -n kubevirt wait kubevirt/kubevirt --for=condition=Available --timeout=15m), else read virt-operator's log",
      evidence: {
        object: 'kubevirt/kubevirt',
        phase: 'Deploying',
        available: 'False',
        availableReason: 'DeploymentInProgress',
        progressing: 'True',
        observedKubeVirtVersion: null,
        targetKubeVirtVersion: 'v1.9.0',
        objects: 1,
      },
    });
    expect(check(deploying, 'tuple.kubernetes-supported').message).toBe('KubeVirt has not reported status.observedKubeVirtVersion yet: no KubeVirt version to check');
    expect(deploying).toMatchObject({ result: 'unknown', exitCode: 3 });
  });

  it('warns during an update (old version until it completes) and after a failed deployment; fails while deleting', () => {
    const updating = run({ kubevirt: listed(rawKubeVirt({ nodePlacement: placedOnReady, status: OPERATOR_STATUS.updating })) });
    expect(check(updating, 'kubevirt.deployed')).toMatchObject({
      status: 'warn',
      message: 'KubeVirt kubevirt/kubevirt is updating from v1.8.2 to v1.9.0 (Progressing=True); the version checks use v1.8.2 until the update completes',
    });
    // Kubernetes 1.36 is outside KubeVirt 1.8's window: the tuple is judged on what runs now.
    expect(check(updating, 'tuple.kubernetes-supported').status).toBe('fail');
    expect(updating.versions.kubevirt).toEqual({ state: 'known', version: 'v1.8.2', minor: '1.8' });

    const failed = run({ kubevirt: listed(rawKubeVirt({ nodePlacement: placedOnReady, status: OPERATOR_STATUS.failed })) });
    expect(check(failed, 'kubevirt.deployed')).toMatchObject({
      status: 'warn',
      message:
        "KubeVirt kubevirt/kubevirt is Deployed but not Available (Available=False, DeploymentFailed: An error occurred during deployment: timed out): some of its components are not ready; check kubectl -n kubevirt get pods and virt-operator's log",
    });
    expect(check(run({ kubevirt: listed(rawKubeVirt({ nodePlacement: placedOnReady, status: OPERATOR_STATUS.deployed })) }), 'kubevirt.deployed')).toMatchObject({
      status: 'pass',
      message: 'KubeVirt kubevirt/kubevirt is Deployed and Available',
    });
    expect(check(run({ kubevirt: listed(rawKubeVirt({ phase: 'Deleting', nodePlacement: placedOnReady })) }), 'kubevirt.deployed').status).toBe('fail');
    expect(check(run({ kubevirt: listed(rawKubeVirt({ phase: 'Deployed', version: null, nodePlacement: placedOnReady })) }), 'kubevirt.deployed')).toMatchObject({
      status: 'unknown',
      message: expect.stringMatching(/^KubeVirt kubevirt\/kubevirt is Deployed but reports no status\.observedKubeVirtVersion/),
    });
  });

  it('is unknown for the KubeVirt version before KubeVirt reports one', () => {
    const report = run({ kubevirt: listed(rawKubeVirt({ phase: 'Deploying', version: null, nodePlacement: placedOnReady })) });
    expect(check(report, 'tuple.kubernetes-supported')).toMatchObject({ status: 'unknown', message: expect.stringMatching(/observedKubeVirtVersion/) });
  });

  it('warns when useEmulation is on while hardware nodes are ready', () => {
    const report = run({ kubevirt: listed(rawKubeVirt({ useEmulation: true, nodePlacement: placedOnReady })) });
    expect(notPassing(report)).toEqual(['kubevirt.emulation-consistent=warn']);
    expect(check(report, 'kubevirt.emulation-consistent').evidence).toEqual({ useEmulation: true, hardwareReady: 3, emulationReady: 0 });
  });

  it('fails when useEmulation is off and only emulation nodes are ready', () => {
    const names = ['e1', 'e2'];
    const report = run({
      nodes: names.map((name) => rawNode(name, { labels: { 'virtgate.io/ready': 'true' } })),
      nodeValidations: names.map((name) => rawReport(name, { tier: 'emulation', ready: true })),
    });
    expect(check(report, 'kubevirt.emulation-consistent')).toMatchObject({ status: 'fail', message: expect.stringMatching(/VMs would not start/) });
    const emulated = run({
      nodes: names.map((name) => rawNode(name, { labels: { 'virtgate.io/ready': 'true' } })),
      nodeValidations: names.map((name) => rawReport(name, { tier: 'emulation', ready: true })),
      kubevirt: listed(rawKubeVirt({ useEmulation: true, nodePlacement: placedOnReady })),
    });
    expect(check(emulated, 'kubevirt.emulation-consistent').status).toBe('pass');
  });
});

describe('gate: kubevirt.placement', () => {
  const nodes = [rawNode('good-1'), rawNode('good-2'), rawNode('broken', { labels: { 'virtgate.io/ready': 'false' } })];
  const reports = [rawReport('good-1'), rawReport('good-2'), rawReport('broken', { ready: false })];

  it('fails when the placement selects a failing node, naming it and the fix', () => {
    const report = run({ nodes, nodeValidations: reports, kubevirt: listed(rawKubeVirt({ nodePlacement: { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } })) });
    const placement = check(report, 'kubevirt.placement');
    expect(placement.status).toBe('fail');
    expect(placement.message).toBe(
      'KubeVirt\'s workloads placement selects every node and selects 1 node that is not ready: broken (not-ready); set spec.workloads.nodePlacement.nodeSelector to {"virtgate.io/ready": "true"} so that VMs land only on validated nodes',
    );
    expect(placement.evidence).toMatchObject({ selected: 3, selectedReady: 2, selectedNotReady: ['broken (not-ready)'], recommendedNodeSelector: { 'virtgate.io/ready': 'true' }, nodePlacementSet: true });
  });

  it('says so when spec.workloads.nodePlacement is not set: fail with a node that is not ready, pass (with the advice) when all are ready', () => {
    const unset = check(run({ nodes, nodeValidations: reports, kubevirt: listed(rawKubeVirt()) }), 'kubevirt.placement');
    expect(unset).toMatchObject({
      status: 'fail',
      message:
        'spec.workloads.nodePlacement is not set, so KubeVirt uses every node without a taint it does not tolerate, 1 node not ready among them: broken (not-ready); set spec.workloads.nodePlacement.nodeSelector to {"virtgate.io/ready": "true"} so that VMs land only on validated nodes',
      evidence: { selected: 3, nodePlacementSet: false },
    });
    const allReady = run({ kubevirt: listed(rawKubeVirt()) });
    expect(check(allReady, 'kubevirt.placement')).toMatchObject({
      status: 'pass',
      message:
        'spec.workloads.nodePlacement is not set, so KubeVirt uses every node without a taint it does not tolerate: 3 nodes, all ready now; set spec.workloads.nodePlacement.nodeSelector to {"virtgate.io/ready": "true"} to keep VMs off nodes that fail validation later',
    });
    expect(allReady).toMatchObject({ result: 'pass', exitCode: 0 });
  });

  it('recommends the configured prefix', () => {
    const report = run({ nodes, nodeValidations: reports, kubevirt: listed(rawKubeVirt()) }, { prefix: 'virt.example.com' });
    expect(check(report, 'kubevirt.placement').message).toContain('{"virt.example.com/ready": "true"}');
  });

  it('passes when the nodeSelector keeps VMs on ready nodes', () => {
    const labelled = [rawNode('good-1', { labels: { 'virtgate.io/ready': 'true' } }), rawNode('good-2', { labels: { 'virtgate.io/ready': 'true' } }), nodes[2]];
    const report = run({ nodes: labelled, nodeValidations: reports, kubevirt: listed(rawKubeVirt({ nodePlacement: placedOnReady })) });
    expect(check(report, 'kubevirt.placement')).toMatchObject({ status: 'pass', evidence: { selected: 2 } });
  });

  it('passes when the failing node carries the not-ready taint KubeVirt does not tolerate', () => {
    const tainted = [nodes[0], nodes[1], rawNode('broken', { taints: [{ key: 'virtgate.io/not-ready', effect: 'NoSchedule' }] })];
    expect(check(run({ nodes: tainted, nodeValidations: reports, kubevirt: listed(rawKubeVirt()) }), 'kubevirt.placement').status).toBe('pass');
  });

  describe('a failed node KubeVirt still calls schedulable (kubevirt.io/schedulable=true, no taint)', () => {
    // KubeVirt v1.9.0: launcher pods select kubevirt.io/schedulable=true only; virt-controller sets
    // it false 5 minutes after virt-handler's last heartbeat (pkg/virt-controller/watch/node/node.go).
    const labelled = [rawNode('good-1', { labels: { 'virtgate.io/ready': 'true' } }), rawNode('good-2', { labels: { 'virtgate.io/ready': 'true' } })];
    const refusal = '2 of 3 nodes in the pool carry the taint already; the limit is 1';
    const failedReport = rawReport('broken', { ready: false, taint: { policy: 'not-ready', applied: false, refused: refusal } });
    const failedNode = (extra: { taints?: Array<{ key: string; effect: string }> } = {}) =>
      rawNode('broken', { labels: { 'virtgate.io/ready': 'false', 'kubevirt.io/schedulable': 'true' }, annotations: { 'kubevirt.io/heartbeat': '2026-12-02T11:58:30Z' }, ...extra });
    const cluster = (broken: Record<string, unknown>, report = failedReport) => ({
      nodes: [...labelled, broken],
      nodeValidations: [rawReport('good-1'), rawReport('good-2'), report],
      kubevirt: listed(rawKubeVirt({ nodePlacement: placedOnReady })),
    });

    it('warns although the placement is right, naming the node, why it has no taint and until when', () => {
      const placement = check(run(cluster(failedNode())), 'kubevirt.placement');
      expect(placement.status).toBe('warn');
      expect(placement.message).toBe(
        "KubeVirt's workloads placement selects 2 nodes, all ready. KubeVirt still places new VMs on a node virtgate failed, which stay Scheduled there without a virt-handler to start them: " +
          `broken (not-ready; the share guard refused virtgate's taint: ${refusal}) until 2026-12-02T12:03:30Z (virt-handler's last heartbeat plus virt-controller's 5-minute timeout); ` +
          'cordon or drain it, or let virtgate taint it (agent.taint.policy, agent.taint.maxShare)',
      );
      expect(placement.evidence).toMatchObject({ selected: 2, stillSchedulable: ['broken (not-ready)'] });
    });

    it('names the policy when it is off, and the timeout when no heartbeat is recorded', () => {
      const off = rawReport('broken', { ready: false });
      const noHeartbeat = rawNode('broken', { labels: { 'virtgate.io/ready': 'false', 'kubevirt.io/schedulable': 'true' } });
      const message = check(run(cluster(noHeartbeat, off)), 'kubevirt.placement').message;
      expect(message).toContain("broken (not-ready; the agent's taint policy is off) until virt-controller marks it unschedulable, 5 minutes after virt-handler's last heartbeat");
    });

    it('passes once a NoSchedule taint keeps launcher pods off, or KubeVirt has set the label false', () => {
      const tainted = failedNode({ taints: [{ key: 'virtgate.io/not-ready', effect: 'NoSchedule' }] });
      expect(check(run(cluster(tainted)), 'kubevirt.placement').status).toBe('pass');
      const cordoned = failedNode({ taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] });
      expect(check(run(cluster(cordoned)), 'kubevirt.placement').status).toBe('pass');
      const givenUp = rawNode('broken', { labels: { 'virtgate.io/ready': 'false', 'kubevirt.io/schedulable': 'false' } });
      expect(check(run(cluster(givenUp)), 'kubevirt.placement').status).toBe('pass');
    });

    it('adds the sentence to a fail without turning it into a warn, naming only nodes outside the placement', () => {
      const staleSelected = rawNode('stale', { labels: { 'virtgate.io/ready': 'true', 'kubevirt.io/schedulable': 'true' } });
      const withStale = { ...cluster(failedNode()), nodes: [...labelled, staleSelected, failedNode()] };
      withStale.nodeValidations = [...withStale.nodeValidations, rawReport('stale', { heartbeatAt: secondsAgo(7200) })];
      const placement = check(run(withStale), 'kubevirt.placement');
      expect(placement.status).toBe('fail');
      expect(placement.message).toMatch(/^KubeVirt's workloads placement selects 1 node that is not ready: stale \(unknown\);.*\. KubeVirt still places new VMs on a node virtgate failed.*: broken \(not-ready;/);
      expect(placement.evidence).toMatchObject({ stillSchedulable: ['broken (not-ready)'] });
    });

    it('leaves a failed node the placement selects to the fail: virt-handler runs there, so no deadline applies', () => {
      const unset = { ...cluster(failedNode()), kubevirt: listed(rawKubeVirt()) };
      const placement = check(run(unset), 'kubevirt.placement');
      expect(placement.status).toBe('fail');
      expect(placement.message).toMatch(/^spec\.workloads\.nodePlacement is not set.*broken \(not-ready\)/);
      expect(placement.message).not.toContain('still places new VMs');
    });
  });

  it('fails when a label says ready but the report has gone stale', () => {
    const stale = [rawReport('node-a'), rawReport('node-b'), rawReport('node-c', { heartbeatAt: secondsAgo(7200) })];
    const placement = check(run({ nodeValidations: stale }), 'kubevirt.placement');
    expect(placement).toMatchObject({ status: 'fail', message: expect.stringMatching(/node-c \(unknown\)/) });
  });

  it('fails when it selects no node at all', () => {
    const report = run({ kubevirt: listed(rawKubeVirt({ nodePlacement: { nodeSelector: { pool: 'vms' } } })) });
    expect(check(report, 'kubevirt.placement')).toMatchObject({ status: 'fail', message: expect.stringMatching(/selects no ready node.*set spec\.workloads\.nodePlacement\.nodeSelector/) });
  });

  it('on virtgate\'s own label with no ready node, points at the nodes, not at the placement', () => {
    const report = run({ kubevirt: listed(rawKubeVirt({ nodePlacement: { nodeSelector: { 'virtgate.io/ready': 'true' } } })), nodes: [rawNode('x', { labels: { 'virtgate.io/ready': 'false' } })] });
    const placement = check(report, 'kubevirt.placement');
    expect(placement.status).toBe('fail');
    expect(placement.message).toMatch(/no node passes validation: see why in each node's report \(kubectl get nodevalidations\)/);
    expect(placement.message).not.toMatch(/set spec\.workloads/);
  });

  it('lists at most ten failing nodes, worst first', () => {
    const many = Array.from({ length: 30 }, (_, index) => `n${String(index).padStart(2, '0')}`);
    const report = run({
      nodes: [...many.map((name) => rawNode(name)), rawNode('good-1'), rawNode('good-2')],
      nodeValidations: [...many.map((name, index) => (index % 2 ? rawReport(name, { ready: false }) : rawReport(name, { heartbeatAt: secondsAgo(9999) }))), rawReport('good-1'), rawReport('good-2')],
      kubevirt: listed(rawKubeVirt()),
    });
    const placement = check(report, 'kubevirt.placement');
    expect(placement.evidence.selectedNotReady).toHaveLength(10);
    expect((placement.evidence.selectedNotReady as string[])[0]).toBe('n01 (not-ready)');
    expect(placement.message).toMatch(/and 25 more;/);
  });

  it('is unknown when the placement cannot be read', () => {
    const report = run({ kubevirt: listed(rawKubeVirt({ nodePlacement: { nodeSelector: 'ready=true' } })) });
    expect(check(report, 'kubevirt.placement')).toMatchObject({ status: 'unknown', message: expect.stringMatching(/^cannot read spec\.workloads\.nodePlacement/) });
  });
});

describe('gate: nodes', () => {
  it('fails min-ready and warns on migration pairs with a single ready node', () => {
    const report = run({ nodes: [rawNode('only', { labels: { 'virtgate.io/ready': 'true' } })], nodeValidations: [rawReport('only')] });
    expect(notPassing(report)).toEqual(['nodes.min-ready=fail', 'nodes.migration-pairs=warn']);
    expect(check(report, 'nodes.min-ready').message).toBe('1 ready node of 1; at least 2 needed (a VM can only live-migrate to another ready node)');
  });

  it('warns on migration pairs when the two ready nodes have different CPU vendors', () => {
    const report = run({
      nodes: [rawNode('i', { labels: { 'virtgate.io/ready': 'true' } }), rawNode('a', { labels: { 'virtgate.io/ready': 'true' } })],
      nodeValidations: [rawReport('i', { vendor: 'intel' }), rawReport('a', { vendor: 'amd' })],
    });
    expect(notPassing(report)).toEqual(['nodes.migration-pairs=warn']);
    expect(check(report, 'nodes.migration-pairs').evidence).toMatchObject({ readyNodes: 2, strandedNodes: 2, stranded: ['a (amd): no other ready amd node', 'i (intel): no other ready intel node'] });
  });

  it('fails a docker runtime, naming the node', () => {
    const nodes = healthyCluster().nodes.map((node, index) => (index === 1 ? rawNode('node-b', { runtime: 'docker://20.10.24', labels: { 'virtgate.io/ready': 'true' } }) : node));
    const report = run({ nodes });
    expect(notPassing(report)).toEqual(['nodes.runtime=fail']);
    expect(check(report, 'nodes.runtime')).toMatchObject({
      message: 'KubeVirt needs containerd or CRI-O; 1 node runs another runtime: node-b (docker://20.10.24)',
      evidence: { byRuntime: { containerd: 2, docker: 1 }, unsupported: ['node-b (docker://20.10.24)'] },
    });
  });

  it('passes CRI-O and is unknown for a node that reports no runtime', () => {
    expect(check(run({ nodes: [rawNode('node-a', { runtime: 'cri-o://1.33.2' })] }), 'nodes.runtime').status).toBe('pass');
    const bare = rawNode('node-a');
    delete ((bare.status as { nodeInfo: Record<string, unknown> }).nodeInfo).containerRuntimeVersion;
    expect(check(run({ nodes: [bare] }), 'nodes.runtime').status).toBe('unknown');
  });

  it('warns on kernel or userland warnings of ready nodes', () => {
    const checks = [{ id: 'os.userland', status: 'warn', message: 'Ubuntu 24.04 is not Enterprise Linux' }, { id: 'dev.kvm', status: 'pass', message: 'ok' }];
    const report = run({ nodeValidations: [rawReport('node-a', { checks }), rawReport('node-b'), rawReport('node-c')] });
    expect(notPassing(report)).toEqual(['nodes.kernel-userland=warn']);
    expect(check(report, 'nodes.kernel-userland').evidence).toEqual({ nodes: 1, warnings: ['node-a: os.userland: Ubuntu 24.04 is not Enterprise Linux'] });
  });

  it('warns on a stale report and names the node', () => {
    const report = run({ nodeValidations: [rawReport('node-a'), rawReport('node-b'), rawReport('node-c', { heartbeatAt: secondsAgo(3600) })] });
    expect(check(report, 'nodes.reports-fresh')).toMatchObject({ status: 'warn', message: '1 node has no fresh, valid report: node-c (stale)', evidence: { byCause: { stale: 1 } } });
    expect(report.readiness.nodes[0]).toMatchObject({ name: 'node-c', state: 'unknown', unknownCause: 'stale' });
  });

  it('ignores a forged report and says so', () => {
    const forged = rawReport('node-c', { ownerName: 'node-a', ownerUid: 'uid-node-a' });
    const report = run({ nodeValidations: [rawReport('node-a'), rawReport('node-b'), forged] });
    expect(check(report, 'nodes.reports-fresh')).toMatchObject({ status: 'warn', message: '1 node has no fresh, valid report: node-c (forged)' });
    expect(report.readiness.nodes[0]?.reason).toMatch(/^report ignored: report is owned by v1 Node node-a/);
    expect(check(report, 'kubevirt.placement').status).toBe('fail');
  });

  it('fails reports-fresh and cannot prove privileged pods when no report is fresh', () => {
    const report = run({ nodeValidations: [] });
    expect(check(report, 'nodes.reports-fresh').status).toBe('fail');
    expect(check(report, 'cluster.privileged').status).toBe('unknown');
    expect(check(report, 'nodes.min-ready').status).toBe('fail');
  });
});

describe('gate: contract', () => {
  it('is pure: same input, same output, input untouched', () => {
    const snapshot = healthyCluster({ nodeValidations: [rawReport('node-a'), rawReport('node-b', { ready: false }), rawReport('node-c', { heartbeatAt: secondsAgo(9999) })] });
    const before = structuredClone(snapshot);
    const first = gate(snapshot, DATA, DEFAULT_GATE_CONFIG, NOW);
    const second = gate(snapshot, DATA, DEFAULT_GATE_CONFIG, new Date(NOW.getTime()));
    expect(second).toEqual(first);
    expect(snapshot).toEqual(before);
  });

  it('returns JSON that survives a round trip', () => {
    const report = run({ nodeValidations: [rawReport('node-a'), rawReport('node-b', { ready: false })] });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('maps the worst status to the exit code: fail 1, warn 3, unknown 3, pass 0', () => {
    expect(run().exitCode).toBe(0);
    expect(run({ serverGitVersion: 'v1.34.0' }).exitCode).toBe(1);
    expect(run({ serverGitVersion: 'v1.35.0' }).exitCode).toBe(3);
    const unknownOnly = run({ serverGitVersion: 'v1.36.0', kubevirt: listed(rawKubeVirt({ phase: 'Weird', nodePlacement: placedOnReady })) });
    expect(notPassing(unknownOnly)).toEqual(['kubevirt.deployed=unknown']);
    expect(unknownOnly).toMatchObject({ result: 'unknown', exitCode: 3 });
  });

  it('refuses an invalid evaluation date (a programming error)', () => {
    expect(() => gate(healthyCluster(), DATA, DEFAULT_GATE_CONFIG, new Date('nope'))).toThrow(TypeError);
  });
});
