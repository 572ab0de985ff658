import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions, type V1Node } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeKeys } from '../../core/kube/names.ts';
import type { NodeValidation } from '../../core/report/schema.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode, podBoundIdentity } from '../lab/controlplane/identities.ts';
import { buildHost, type BuiltHost, type HostProfile, removeDevice, restoreDevice } from '../lab/hosts/build-host.ts';
import { AGENT_NAMESPACE, agentIdentity } from '../lab/support/agent-identity.ts';
import { allOrThrow } from '../lab/support/all-or-throw.ts';
import { type AgentProcess, startAgentProcess } from '../lab/processes/launch.ts';
import { seriesValue } from '../lab/processes/metrics-text.ts';
import { installCrd } from '../lab/support/crds.ts';
import { statusOfCall, waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const keys = nodeKeys();
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const FOREIGN_TAINT = { key: 'example.com/dedicated', value: 'db', effect: 'NoSchedule' };
const running: AgentProcess[] = [];

interface TestNode {
  name: string;
  host: BuiltHost;
  kubeconfig: string;
}

async function prepareNode(name: string, profile: HostProfile, options: { labels?: Record<string, string> } = {}): Promise<TestNode> {
  const host = await buildHost(await mkdtemp(path.join(os.tmpdir(), `${name}-`)), profile);
  await createNode(admin, name, { labels: { 'team.example.com/owner': 'blue', ...options.labels }, taints: [FOREIGN_TAINT] });
  const identity = await agentIdentity(admin, cp, name);
  return { name, host, kubeconfig: identity.kubeconfig };
}

async function runAgent(node: TestNode, extra: string[] = []): Promise<AgentProcess> {
  const agent = await startAgentProcess([
    '--node-name', node.name,
    '--kubeconfig', node.kubeconfig,
    ...node.host.cliArgs,
    '--no-vhv',
    '--interval', '10s',
    '--jitter', '0',
    ...extra,
  ]);
  running.push(agent);
  return agent;
}

const readNode = (name: string) => core.readNode({ name });
const readReport = async (name: string) =>
  (await custom.getClusterCustomObject({ group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations', name })) as NodeValidation;
/** The report once its status is written (the agent creates the object, then writes /status). */
const writtenReport = (name: string) => waitFor(`the NodeValidation ${name} with its status`, async () => {
  const report = await readReport(name).catch(() => undefined);
  return report?.status ? report : undefined;
});
const run = promisify(execFile);
/** The real kubectl of the control plane's build, as a user runs it. */
const kubectl = (args: string[]) =>
  run(path.join(cp.binDir, 'kubectl'), ['--kubeconfig', cp.adminKubeconfig, ...args], { encoding: 'utf8' }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
const condition = (node: V1Node) => node.status?.conditions?.find((c) => c.type === 'VirtualizationReady');

/** Completed writes by the agent of `node`, told apart by the node name its pod-bound token carries. */
async function agentWrites(node: string, since: number) {
  return (await cp.audit.since(since)).filter(
    (event) =>
      event.user.username === 'system:serviceaccount:virtgate-test:agent' &&
      event.user.extra?.['authentication.kubernetes.io/node-name']?.[0] === node &&
      ['create', 'update', 'patch', 'delete'].includes(event.verb),
  );
}

/** Labels and condition are separate writes: wait until both say `ready`. */
async function published(name: string, ready: 'true' | 'false'): Promise<V1Node> {
  const status = ready === 'true' ? 'True' : 'False';
  return waitFor(`${name} to be labelled ready=${ready} with condition ${status}`, async () => {
    const node = await readNode(name);
    return node.metadata?.labels?.[keys.labels.ready] === ready && condition(node)?.status === status ? node : undefined;
  });
}

beforeAll(async () => {
  await installCrd(admin);
});

afterAll(async () => {
  await Promise.all(running.map((agent) => agent.stop()));
});

describe('virtgate agent against a real API server', () => {
  it('publishes labels, the condition and the NodeValidation for a hardware host, and keeps foreign keys', async () => {
    const node = await prepareNode('agent-hw', 'intel-metal');
    await runAgent(node);
    const published_ = await published(node.name, 'true');
    const labels = published_.metadata?.labels ?? {};
    expect(labels).toMatchObject({
      [keys.labels.ready]: 'true',
      [keys.labels.tier]: 'hardware',
      [keys.familyLabel('kvm')]: 'true',
      [keys.familyLabel('tun')]: 'true',
      [keys.familyLabel('vhost-net')]: 'true',
      [keys.familyLabel('cpu-vendor')]: 'intel',
      [keys.familyLabel('nested')]: 'false',
      'team.example.com/owner': 'blue',
    });
    expect(labels[keys.familyLabel('kernel')]).toMatch(/^\d+\.\d+$/);
    expect(published_.spec?.taints).toEqual([expect.objectContaining(FOREIGN_TAINT)]);
    expect(JSON.parse(published_.metadata?.annotations?.[keys.ownershipAnnotation] ?? '{}').labels).toHaveLength(8);
    expect(condition(published_)).toMatchObject({ status: 'True', reason: 'HardwareVirtualization' });
    // The kubelet's own condition survives the strategic merge.
    expect(published_.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');

    const report = await writtenReport(node.name);
    expect(report.spec.nodeName).toBe(node.name);
    // The Ready condition mirrors the verdict with the Node condition's reason; status writes go
    // through the status subresource, so the generation stays 1.
    expect(report.metadata.generation).toBe(1);
    expect(report.status?.observedGeneration).toBe(1);
    expect(report.status?.conditions).toEqual([
      { type: 'Ready', status: 'True', observedGeneration: 1, reason: 'HardwareVirtualization', message: condition(published_)?.message, lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
    ]);
    const waited = await kubectl(['wait', '--for=condition=Ready', `nodevalidation/${node.name}`, '--timeout=60s']);
    expect(waited.stdout + waited.stderr).toContain(`nodevalidation.virtgate.io/${node.name} condition met`);
    expect(waited.code).toBe(0);
    const table = await kubectl(['get', 'nodevalidation', node.name]);
    expect(table.stdout).toMatch(/^NAME\s+READY\s+REASON\s+TIER\s+KVM\s+KERNEL\s+AGE$/m);
    expect(table.stdout).toMatch(new RegExp(`^${node.name}\\s+true\\s+HardwareVirtualization\\s+hardware\\s+pass\\s`, 'm'));
    expect(report.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: node.name, uid: published_.metadata?.uid });
    expect(report.status).toMatchObject({ ready: true, tier: 'hardware', kvm: 'pass', conclusive: true, taint: { policy: 'off', applied: false } });
    expect(report.status?.checks.map((c) => c.id)).toContain('dev.kvm');
    // The guest CPU features of the fixture's cpuinfo, sorted, for nodes.migration-pairs.
    const features = report.status?.cpuFeatures ?? [];
    expect(features).toEqual([...features].sort());
    expect(features).toEqual(expect.arrayContaining(['avx512f', 'amx_tile', 'sse4_2']));
    expect(features).not.toContain('vmx');
    // The inventory describes the host under the agent's host root (the fixture's Dell with its
    // Xeon, 4 threads and 503 GiB), not the machine the agent runs on; collected at start.
    expect(report.status?.inventory).toEqual({
      collected: true,
      system: { manufacturer: 'Dell Inc.', model: 'PowerEdge R760' },
      cpu: { brand: 'Intel Xeon® Platinum 8488C', sockets: 1, cores: 4, threads: 4 },
      memoryTotalBytes: 527_543_264 * 1024,
    });
  });

  it('labels an emulation-only host not ready, and a host without tun tier none', async () => {
    const emulation = await prepareNode('agent-emu', 'no-vmx');
    const none = await prepareNode('agent-none', 'no-tun');
    await Promise.all([runAgent(emulation), runAgent(none)]);
    const emu = await published(emulation.name, 'false');
    expect(emu.metadata?.labels?.[keys.labels.tier]).toBe('emulation');
    expect(condition(emu)).toMatchObject({ status: 'False', reason: 'NoHardwareVirtualization' });
    const noTun = await published(none.name, 'false');
    expect(noTun.metadata?.labels?.[keys.labels.tier]).toBe('none');
    expect(condition(noTun)).toMatchObject({ status: 'False', reason: 'NoTunDevice' });

    // kubectl wait: Ready=False is met for the emulation host; Ready (True) never is.
    await writtenReport(emulation.name);
    const notReady = await kubectl(['wait', '--for=condition=Ready=False', `nodevalidation/${emulation.name}`, '--timeout=60s']);
    expect(notReady.stdout + notReady.stderr).toContain(`nodevalidation.virtgate.io/${emulation.name} condition met`);
    expect(notReady.code).toBe(0);
    const ready = await kubectl(['wait', '--for=condition=Ready', `nodevalidation/${emulation.name}`, '--timeout=3s']);
    expect(ready.stderr).toContain('timed out waiting for the condition');
    expect(ready.code).not.toBe(0);
    expect((await readReport(emulation.name)).status?.conditions?.[0]).toMatchObject({ status: 'False', reason: 'NoHardwareVirtualization' });
  });

  it('publishes the passthrough inventory in status.hostDevices with its pod-bound identity, and stays ready', async () => {
    // gpu-shared-group: an RTX 3090 on vfio-pci whose IOMMU group also holds its audio function on snd_hda_intel.
    const node = await prepareNode('agent-gpu', 'gpu-shared-group');
    await runAgent(node);
    await published(node.name, 'true');
    const report = await writtenReport(node.name);
    const devices = report.status?.hostDevices;
    expect(devices).toMatchObject({ iommu: true, functions: 5, truncated: false });
    expect(devices?.pci).toContainEqual(expect.objectContaining({ selector: '10DE:2204', state: 'group-not-viable', count: 1, blocker: expect.stringContaining('snd_hda_intel') }));
    expect(report.status?.checks.find((check) => check.id === 'passthrough')).toMatchObject({ status: 'warn' });
  });

  it('makes no writes on a second run or in steady state (audit log)', async () => {
    const node = await prepareNode('agent-quiet', 'amd-metal');
    const first = await runAgent(node);
    await published(node.name, 'true');
    await writtenReport(node.name);
    expect(await first.stop()).toBe(0);

    const mark = await cp.audit.mark();
    const second = await runAgent(node);
    // The start-up probe and two more on the 10 s interval, each followed by a publish.
    await new Promise((resolve) => setTimeout(resolve, 22_000));
    const metrics = await second.metrics();
    expect(seriesValue(metrics, 'virtgate_probe_duration_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(seriesValue(metrics, 'virtgate_last_publish_success_timestamp_seconds')).toBeGreaterThan(0);
    const writes = await agentWrites(node.name, mark);
    const decisions = second.logs.filter((line) => line.decision && line.decision !== 'verdict');
    expect(writes.map((w) => `${w.verb} ${w.objectRef?.resource}/${w.objectRef?.subresource ?? ''}`), JSON.stringify(decisions)).toEqual([]);
    const reads = (await cp.audit.since(mark)).filter((e) => e.user.extra?.['authentication.kubernetes.io/node-name']?.[0] === node.name);
    expect(reads.length).toBeGreaterThan(0);
  });

  it('flips the labels and condition within one interval when /dev/kvm disappears, and back', async () => {
    const node = await prepareNode('agent-flip', 'intel-metal');
    const agent = await runAgent(node);
    await published(node.name, 'true');
    await removeDevice(node.host.root, 'kvm');
    const flipped = await published(node.name, 'false');
    expect(flipped.metadata?.labels).toMatchObject({ [keys.familyLabel('kvm')]: 'false', [keys.labels.tier]: 'emulation' });
    expect(condition(flipped)?.status).toBe('False');
    // The Event is the last write of the publish that flipped the labels.
    const event = await waitFor('a VirtualizationNotReady Event', async () => {
      const events = await core.listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${node.name}` });
      return events.items.find((e) => e.reason === 'VirtualizationNotReady');
    });
    expect(event.type).toBe('Warning');
    expect(event.message).toMatch(/ready true → false, tier hardware → emulation/);
    await restoreDevice(node.host.root, 'kvm');
    await published(node.name, 'true');
    expect(agent.child.exitCode).toBeNull();
  });

  it('re-applies at once when someone removes an owned label, via its node watch', async () => {
    const node = await prepareNode('agent-drift', 'intel-metal');
    // A long interval: only the watch can explain a quick repair.
    const agent = await runAgent(node, ['--interval', '10m']);
    await published(node.name, 'true');
    // Its own writes, seen through the watch, are not drift.
    expect(agent.logs.filter((line) => line.decision === 'drift')).toEqual([]);
    await core.patchNode({ name: node.name, body: { metadata: { labels: { [keys.labels.ready]: null } } } }, mergePatch);
    await published(node.name, 'true');
    expect(agent.logs.some((line) => line.decision === 'drift')).toBe(true);
  });

  it('taints failing pool nodes but never more than the allowed share, and keeps foreign taints', async () => {
    const pool = { 'pool.example.com/vm': 'guarded' };
    const nodes = await allOrThrow(['a', 'b', 'c', 'd'].map((suffix) => prepareNode(`agent-guard-${suffix}`, 'no-tun', { labels: pool })));
    await Promise.all(
      nodes.map((node) => runAgent(node, ['--taint-policy', 'not-ready', '--taint-pool-selector', 'pool.example.com/vm=guarded', '--taint-max-share', '0.5'])),
    );
    const reports = await waitFor('all four reports', async () => {
      const all = await Promise.all(nodes.map((n) => readReport(n.name).catch(() => undefined)));
      return all.every((r) => r?.status?.taint) ? (all as NodeValidation[]) : undefined;
    });
    // Let concurrent decisions settle (each agent re-checks after tainting).
    await waitFor('the guard to settle at two tainted nodes', async () => {
      const tainted = await Promise.all(nodes.map(async (n) => (await readNode(n.name)).spec?.taints?.some((t) => t.key === keys.notReadyTaint)));
      return tainted.filter(Boolean).length === 2 ? true : undefined;
    });
    const settled = await Promise.all(nodes.map((n) => readReport(n.name)));
    expect(settled.filter((r) => r.status?.taint.applied)).toHaveLength(2);
    expect(settled.filter((r) => r.status?.taint.refused)).toHaveLength(2);
    expect(reports).toHaveLength(4);
    for (const n of nodes) {
      const current = await readNode(n.name);
      expect(current.spec?.taints).toEqual(expect.arrayContaining([expect.objectContaining(FOREIGN_TAINT)]));
    }
    const tainted = await Promise.all(nodes.map(async (n) => (await readNode(n.name)).spec?.taints?.find((t) => t.key === keys.notReadyTaint)));
    expect(tainted.filter(Boolean).every((t) => t?.effect === 'NoSchedule')).toBe(true);
  });

  it('asks whether a failing node is in the taint pool only when its labels change, and taints it once it joins', async () => {
    const selector = 'pool.example.com/vm=joinable';
    const node = await prepareNode('agent-outside', 'no-tun', { labels: { 'pool.example.com/vm': 'elsewhere' } });
    const agent = await runAgent(node, ['--taint-policy', 'not-ready', '--taint-pool-selector', selector, '--taint-max-share', '1']);
    await waitFor('the refusal in the report', async () => {
      const report = await readReport(node.name).catch(() => undefined);
      return report?.status?.taint.refused?.includes('outside the taint pool selector') ? report : undefined;
    });
    const probes = async () => seriesValue(await agent.metrics(), 'virtgate_probe_duration_seconds_count') ?? 0;
    const before = await probes();
    const mark = await cp.audit.mark();
    await waitFor('two more probe cycles', async () => ((await probes()) >= before + 2 ? true : undefined), 40_000, 500);
    const nodeLists = (await cp.audit.since(mark)).filter(
      (event) =>
        event.user.extra?.['authentication.kubernetes.io/node-name']?.[0] === node.name && event.verb === 'list' && event.objectRef?.resource === 'nodes',
    );
    expect(nodeLists).toEqual([]);
    // Logged once, not on every cycle.
    expect(agent.logs.filter((line) => line.decision === 'taint-refused')).toHaveLength(1);
    expect((await readNode(node.name)).spec?.taints?.some((t) => t.key === keys.notReadyTaint)).toBe(false);

    await core.patchNode({ name: node.name, body: { metadata: { labels: { 'pool.example.com/vm': 'joinable' } } } }, mergePatch);
    await waitFor('the taint once the node is in the pool', async () =>
      (await readNode(node.name)).spec?.taints?.some((t) => t.key === keys.notReadyTaint) ? true : undefined, 40_000);
    expect((await readNode(node.name)).spec?.taints).toEqual(expect.arrayContaining([expect.objectContaining(FOREIGN_TAINT)]));
  });

  it('lets the garbage collector delete the NodeValidation with its Node', async () => {
    await cp.control('controller-manager/start');
    const node = await prepareNode('agent-gc', 'no-vmx');
    const agent = await runAgent(node);
    await waitFor('the NodeValidation', () => readReport(node.name).catch(() => undefined));
    await agent.stop();
    await core.deleteNode({ name: node.name });
    await waitFor('the NodeValidation to be garbage-collected', async () =>
      (await statusOfCall(() => readReport(node.name))) === 404 ? true : undefined, 60_000);
  });

  it('counts every write by resource and the code the API server answered: a 403 stays a 403', async () => {
    // An identity that may write the Node but not NodeValidations: RBAC refuses the report with 403.
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    const name = 'virtgate-test-agent-no-reports';
    await rbac.createClusterRole({
      body: {
        metadata: { name },
        rules: [
          { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
          { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
          { apiGroups: ['virtgate.io'], resources: ['nodevalidations'], verbs: ['get'] },
          { apiGroups: [''], resources: ['events'], verbs: ['create'] },
        ],
      },
    });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ kind: 'ServiceAccount', name: 'agent-no-reports', namespace: AGENT_NAMESPACE }],
      },
    });
    const host = await buildHost(await mkdtemp(path.join(os.tmpdir(), 'agent-forbidden-')), 'intel-metal');
    await createNode(admin, 'agent-forbidden', {});
    const identity = await podBoundIdentity(admin, cp, AGENT_NAMESPACE, 'agent-no-reports', 'agent-forbidden');
    const agent = await runAgent({ name: 'agent-forbidden', host, kubeconfig: identity.kubeconfig });
    const count = (text: string, labels: Record<string, string>) => seriesValue(text, 'virtgate_agent_api_writes_total', labels) ?? 0;
    const text = await waitFor('a refused NodeValidation write and an accepted Node patch on /metrics', async () => {
      const metrics = await agent.metrics();
      return count(metrics, { resource: 'nodevalidations', code: '403' }) >= 1 && count(metrics, { resource: 'nodes', code: '200' }) >= 1 ? metrics : undefined;
    });
    expect(count(text, { resource: 'nodes/status', code: '200' })).toBeGreaterThanOrEqual(1);
    expect(count(text, { resource: 'nodevalidations', code: '201' })).toBe(0);
    // One family, rendered by prom-client, with the node on every series; the build and the process too.
    expect(text).toContain('# TYPE virtgate_agent_api_writes_total counter');
    expect(text).not.toMatch(/^virtgate_api_write/m);
    expect(seriesValue(text, 'virtgate_build_info', { node: 'agent-forbidden' })).toBe(1);
    expect(seriesValue(text, 'process_resident_memory_bytes', { node: 'agent-forbidden' })).toBeGreaterThan(0);
    expect(seriesValue(text, 'nodejs_eventloop_lag_seconds', { node: 'agent-forbidden' })).toBeGreaterThanOrEqual(0);
  });

  it('survives the API server being down for 20 s and publishes the latest verdict afterwards', async () => {
    const node = await prepareNode('agent-outage', 'intel-metal');
    const agent = await runAgent(node, ['--publish-failure-threshold', '5s']);
    await published(node.name, 'true');
    const readyz = async () => (await fetch(`http://127.0.0.1:${agent.port}/readyz`)).status;
    expect(await readyz()).toBe(200);

    await cp.control('apiserver/stop');
    const downAt = Date.now();
    await removeDevice(node.host.root, 'kvm');
    await waitFor('/readyz to report the failing publish', async () => ((await readyz()) === 503 ? true : undefined), 30_000, 500);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20_000 - (Date.now() - downAt))));
    // It kept probing while the server was away.
    const probes = seriesValue(await agent.metrics(), 'virtgate_probe_duration_seconds_count') ?? 0;
    expect(probes).toBeGreaterThanOrEqual(2);
    await cp.control('apiserver/start');

    const flipped = await published(node.name, 'false');
    expect(flipped.metadata?.labels?.[keys.familyLabel('kvm')]).toBe('false');
    await waitFor('/readyz to recover', async () => ((await readyz()) === 200 ? true : undefined), 30_000, 500);
    expect(agent.child.exitCode).toBeNull();
    expect((seriesValue(await agent.metrics(), 'virtgate_publish_failures_total') ?? 0)).toBeGreaterThan(0);
  });

  it('exits 0 on SIGTERM without touching the node', async () => {
    const node = await prepareNode('agent-sigterm', 'intel-metal');
    const agent = await runAgent(node);
    await published(node.name, 'true');
    // The first publish ends with the NodeValidation's status; after that the agent has nothing to write.
    await writtenReport(node.name);
    const mark = await cp.audit.mark();
    expect(await agent.stop()).toBe(0);
    const writes = await agentWrites(node.name, mark);
    expect(writes.map((w) => `${w.verb} ${w.objectRef?.resource}`), JSON.stringify(agent.logs)).toEqual([]);
    expect((await readNode(node.name)).metadata?.labels?.[keys.labels.ready]).toBe('true');
  });
});
