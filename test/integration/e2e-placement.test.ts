/**
 * End to end: does KubeVirt, configured as the chart's NOTES recommend, place VMs only where virtgate
 * found them able to run? Real kube-apiserver and kube-scheduler, one real `virtgate agent` process
 * per fake Node probing its own fixture host, the real aggregator process, pods shaped like
 * virt-launcher as KubeVirt renders them (test/lab/e2e/virt-launcher.ts), and a stand-in for where
 * virt-handler runs and the `kubevirt.io/schedulable` label it leaves (test/lab/e2e/virt-handler.ts).
 * No kubelet runs, so pods are bound and never started: where the scheduler binds them is the whole
 * question.
 *
 * Why a stand-in here: six nodes of six different kinds cannot each run a kubelet on one machine.
 * Real KubeVirt (its operator, virt-handler on the node, a VMI that boots) is the judge on the one
 * real node instead: test/node/kubevirt.test.ts. This file keeps the multi-node placement cases
 * that need nodes without a kubelet.
 *
 * The six nodes, each a different way to be (un)fit for VMs:
 *
 * | node          | fixture host                     | verdict                                            |
 * |---------------|----------------------------------|----------------------------------------------------|
 * | e2e-hardware  | intel-metal                      | hardware, ready                                    |
 * | e2e-emulation | no-vmx (a VM without nested virt)| emulation: not ready until the policy allows it     |
 * | e2e-none      | no-tun (no KVM, no tun)          | none                                               |
 * | e2e-no-tun    | amd-metal with dev/net/tun gone  | none, although KVM works: VMs would get no network |
 * | e2e-tainted   | kvm-enodev (KVM driver unloaded) | not ready, and tainted by the not-ready policy     |
 * | e2e-stale     | rhel9, agent stopped long ago    | labels still say ready; the report is stale        |
 *
 * "none" and "no tun" are both tier none but differ where it matters: e2e-none cannot virtualise at
 * all, while e2e-no-tun has a working /dev/kvm, so KubeVirt's own virt-handler advertises the KVM
 * device there and libvirt would happily start a VM — without networking. e2e-tainted is the case
 * virt-host-validate passes (it only access()es /dev/kvm) and virt-handler advertises KVM on.
 *
 * Every node advertises `devices.kubevirt.io/kvm`, although a real virt-handler advertises 0 on
 * nodes without /dev/kvm: the resource then can never be what keeps a pod off a node, so every
 * exclusion below is virtgate's label (through virt-handler's placement) or its taint at work.
 * As in KubeVirt, a launcher pod selects only `kubevirt.io/schedulable=true`, which virt-handler
 * sets where the placement runs it, even on a node without /dev/kvm. A virt-handler that leaves
 * gracefully sets it false; one that leaves abruptly leaves it true until virt-controller finds
 * its heartbeat 5 minutes stale: a node that fails *after* virt-handler ran there then takes new
 * VMs unless a taint keeps them off (the last test).
 * Each node has room for exactly two VMs (2 CPUs, 1 CPU a VM), so a batch of five shows both where
 * VMs go and that, once the schedulable nodes are full, the rest wait instead of spilling over.
 *
 * The stale node, honestly: virtgate never removes labels when an agent stops (no churn on a
 * restart or rolling update; design.md), and the aggregator is read-only. So a node whose agent died
 * keeps `ready=true` and keeps receiving VMs; what virtgate guarantees there is that the aggregator
 * reports it `unknown (stale)`, fails `kubevirt.placement` naming it, and warns in
 * `nodes.reports-fresh` (and the VirtgateReportStale alert fires). The test asserts exactly that.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type V1Node } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GateResponse, gateResponseSchema } from '../../aggregator/documents/api.ts';
import { nodeKeys } from '../../core/kube/names.ts';
import type { NodeValidation } from '../../core/report/schema.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode, ensureNamespace } from '../lab/controlplane/identities.ts';
import { type KubeVirtView, readKubeVirt } from '../lab/e2e/kubevirt-cr.ts';
import { recommendedPlacement } from '../lab/e2e/recommended-placement.ts';
import { VirtHandlerStandIn } from '../lab/e2e/virt-handler.ts';
import { KVM_RESOURCE, SCHEDULABLE_LABEL, virtLauncherPod, type VmSpec } from '../lab/e2e/virt-launcher.ts';
import { buildHost, type BuiltHost, type HostProfile, removeDevice } from '../lab/hosts/build-host.ts';
import { agentIdentity } from '../lab/support/agent-identity.ts';
import { allOrThrow } from '../lab/support/all-or-throw.ts';
import { type AgentProcess, startAgentProcess } from '../lab/processes/launch.ts';
import { createKubeVirt, installKubeVirtCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { type AggregatorProcess, startAggregatorProcess } from '../lab/processes/launch.ts';
import { installCrd } from '../lab/support/crds.ts';
import { mergeNodeValidationStatus } from '../lab/support/node-validations.ts';
import { waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const keys = nodeKeys();
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const NS = 'e2e-placement';
const KUBEVIRT = { namespace: 'e2e-kubevirt', name: 'kubevirt' };
const BATCH_LABEL = 'e2e.virtgate.test/batch';
/** The taint policy's pool: the bare-metal-like nodes. Three nodes, so the share guard (0.5) allows one taint. */
const POOL_LABEL = 'e2e.virtgate.test/pool';
const HOSTNAME = 'kubernetes.io/hostname';

type Role = 'hardware' | 'emulation' | 'none' | 'noTun' | 'tainted' | 'stale';
const NODES: Record<Role, { name: string; profile: HostProfile; pool: boolean }> = {
  hardware: { name: 'e2e-hardware', profile: 'intel-metal', pool: true },
  emulation: { name: 'e2e-emulation', profile: 'no-vmx', pool: false },
  none: { name: 'e2e-none', profile: 'no-tun', pool: false },
  noTun: { name: 'e2e-no-tun', profile: 'amd-metal', pool: false },
  tainted: { name: 'e2e-tainted', profile: 'kvm-enodev', pool: true },
  stale: { name: 'e2e-stale', profile: 'rhel9', pool: true },
};
const ROLES = Object.keys(NODES) as Role[];
const name = (role: Role) => NODES[role].name;

const hosts = {} as Record<Role, BuiltHost>;
const NODE_NAMES = ROLES.map(name);
const handlers = new VirtHandlerStandIn(core, NS);
const kubeconfigs = {} as Record<Role, string>;
const agents: Partial<Record<Role, AgentProcess>> = {};
let aggregator: AggregatorProcess | undefined;
const hostDirs: string[] = [];

/** One DaemonSet configuration for every agent: the not-ready taint policy on the pool. */
async function runAgent(role: Role, extra: string[] = []): Promise<AgentProcess> {
  const agent = await startAgentProcess([
    '--node-name', name(role),
    '--kubeconfig', kubeconfigs[role],
    ...hosts[role].cliArgs,
    '--no-vhv',
    '--interval', '10s',
    '--jitter', '0',
    '--taint-policy', 'not-ready',
    '--taint-pool-selector', `${POOL_LABEL}=metal`,
    ...extra,
  ]);
  agents[role] = agent;
  return agent;
}

const readNode = (role: Role) => core.readNode({ name: name(role) });
const hasNotReadyTaint = (node: V1Node) => (node.spec?.taints ?? []).some((taint) => taint.key === keys.notReadyTaint);
const readReport = async (role: Role) =>
  (await custom.getClusterCustomObject({ group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations', name: name(role) })) as NodeValidation;

async function labelled(role: Role, ready: 'true' | 'false', tier: string): Promise<V1Node> {
  return waitFor(`${name(role)} to be labelled ready=${ready} tier=${tier}`, async () => {
    const node = await readNode(role);
    const labels = node.metadata?.labels ?? {};
    return labels[keys.labels.ready] === ready && labels[keys.labels.tier] === tier ? node : undefined;
  });
}

async function gate(): Promise<GateResponse | undefined> {
  const response = await fetch(`${aggregator?.url}/api/v1/gate`);
  if (response.status === 503) return undefined;
  return gateResponseSchema.parse(await response.json());
}

async function waitForGate(what: string, accept: (report: GateResponse) => boolean): Promise<GateResponse> {
  let last: GateResponse | undefined;
  try {
    return await waitFor(what, async () => {
      last = await gate();
      return last && accept(last) ? last : undefined;
    });
  } catch (error) {
    const seen = last ? last.readiness.nodes.map((node) => `${node.name}:${node.state}`).join(' ') : 'no report (503)';
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last seen: ${seen}`);
  }
}

const stateOf = (report: GateResponse, role: Role) => report.readiness.nodes.find((node) => node.name === name(role));

// ------------------------------------------------------------------ pods

const kubevirtNow = () => readKubeVirt(admin, KUBEVIRT.namespace, KUBEVIRT.name);

/** virt-handler where the KubeVirt CR's placement (as it is now, or `kubevirt`) runs it; returns those nodes. */
async function syncHandlers(kubevirt?: KubeVirtView, departure: 'graceful' | 'abrupt' = 'graceful'): Promise<Set<string>> {
  return handlers.sync((kubevirt ?? (await kubevirtNow())).placement, NODE_NAMES, departure);
}

/** Creates the virt-launcher pod of one VM, as KubeVirt renders it from the VMI and the CR as it is now. */
async function createVm(batch: string, vm: VmSpec): Promise<string> {
  const pod = virtLauncherPod(await kubevirtNow(), { ...vm, labels: { [BATCH_LABEL]: batch } });
  await core.createNamespacedPod({ namespace: NS, body: pod });
  return pod.metadata?.name ?? '';
}

interface Placement {
  /** pod name → node */
  bound: Map<string, string>;
  /** pod name → the scheduler's Unschedulable message */
  pending: Map<string, string>;
}

async function placementOf(batch: string): Promise<Placement> {
  const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: `${BATCH_LABEL}=${batch}` });
  const placement: Placement = { bound: new Map(), pending: new Map() };
  for (const pod of pods.items) {
    const podName = pod.metadata?.name ?? '';
    if (pod.spec?.nodeName) placement.bound.set(podName, pod.spec.nodeName);
    const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (!pod.spec?.nodeName && scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') placement.pending.set(podName, scheduled.message ?? '');
  }
  return placement;
}

/** Waits until the scheduler has decided every pod of the batch and `bound` of them are bound. */
async function settled(batch: string, total: number, bound: number): Promise<Placement> {
  let last: Placement | undefined;
  try {
    return await waitFor(`the scheduler to bind ${bound} of ${total} pods of ${batch} and find no room for the rest`, async () => {
      last = await placementOf(batch);
      return last.bound.size === bound && last.pending.size === total - bound ? last : undefined;
    }, 60_000, 250);
  } catch (error) {
    const seen = last ? JSON.stringify({ bound: Object.fromEntries(last.bound), pending: [...last.pending.keys()] }) : 'nothing';
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last seen: ${seen}`);
  }
}

function countByNode(placement: Placement): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const node of placement.bound.values()) counts[node] = (counts[node] ?? 0) + 1;
  return counts;
}

/** Pods never run here (no kubelet), so a graceful delete would wait forever: delete at once. */
async function deleteBatch(batch: string): Promise<void> {
  await core.deleteCollectionNamespacedPod({ namespace: NS, labelSelector: `${BATCH_LABEL}=${batch}`, gracePeriodSeconds: 0 });
  await waitFor(`the pods of ${batch} to be gone`, async () =>
    (await core.listNamespacedPod({ namespace: NS, labelSelector: `${BATCH_LABEL}=${batch}` })).items.length === 0 ? true : undefined);
}

// ------------------------------------------------------------------ setup

beforeAll(async () => {
  await cp.control('scheduler/start');
  // Every node in the cluster is a candidate for the scheduler and part of the aggregator's report:
  // start from an empty cluster (test files run one at a time) so both see exactly these six.
  await installCrd(admin);
  await installKubeVirtCrds(admin, { cdi: false });
  await resetCluster(admin);
  await ensureNamespace(admin, NS);

  // KubeVirt as the chart's NOTES tell users to configure it.
  const placement = await recommendedPlacement(path.join(cp.binDir, 'helm'));
  await createKubeVirt(admin, { ...KUBEVIRT, version: 'v1.9.0', nodePlacement: placement });

  await allOrThrow(
    ROLES.map(async (role) => {
      const dir = await mkdtemp(path.join(os.tmpdir(), `${name(role)}-`));
      hostDirs.push(dir);
      hosts[role] = await buildHost(dir, NODES[role].profile);
      await createNode(admin, name(role), {
        labels: NODES[role].pool ? { [POOL_LABEL]: 'metal' } : {},
        cpu: '2',
        memory: '8Gi',
        extraResources: { [KVM_RESOURCE]: '1k' },
      });
      kubeconfigs[role] = (await agentIdentity(admin, cp, name(role))).kubeconfig;
    }),
  );
  await removeDevice(hosts.noTun.root, 'tun');

  // One at a time: six Node processes loading at once on a shared 2-core machine can each take
  // longer than startAgentProcess waits.
  for (const role of ROLES) await runAgent(role);

  // Staleness on demand: the stale node's agent ran and published like any other, then stopped
  // (SIGTERM; it removes nothing on the way out). Its report would go stale after --stale-after
  // (30 min by default) with no heartbeat; instead of waiting, the heartbeat is moved two hours
  // into the past, which is exactly what the aggregator would see of an agent that died then.
  await labelled('stale', 'true', 'hardware');
  await waitFor('the stale node\'s first report', async () => ((await readReport('stale').catch(() => undefined))?.status?.heartbeatAt ? true : undefined));
  expect(await agents.stale?.stop()).toBe(0);
  delete agents.stale;
  const longAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
  await mergeNodeValidationStatus(custom, name('stale'), { heartbeatAt: longAgo, probedAt: longAgo });

  aggregator = await startAggregatorProcess(['--kubeconfig', cp.adminKubeconfig]);
});

/** Every node's labels as its own agent published them: what virt-handler's placement is applied to. */
async function firstVerdicts(): Promise<Record<Role, V1Node>> {
  return {
    hardware: await labelled('hardware', 'true', 'hardware'),
    emulation: await labelled('emulation', 'false', 'emulation'),
    none: await labelled('none', 'false', 'none'),
    noTun: await labelled('noTun', 'false', 'none'),
    tainted: await waitFor('the failing pool node to be tainted', async () => {
      const node = await labelled('tainted', 'false', 'emulation');
      return hasNotReadyTaint(node) ? node : undefined;
    }),
    stale: await readNode('stale'),
  };
}

afterAll(async () => {
  await Promise.all(Object.values(agents).map((agent) => agent.stop()));
  await aggregator?.stop();
  await core.deleteCollectionNamespacedPod({ namespace: NS, gracePeriodSeconds: 0 }).catch(() => undefined);
  await custom.deleteNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', plural: 'kubevirts', ...KUBEVIRT }).catch(() => undefined);
  for (const role of ROLES) await core.deleteNode({ name: name(role) }).catch(() => undefined);
  await Promise.all(hostDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

// ------------------------------------------------------------------ tests

describe('KubeVirt-style placement with virtgate, end to end', () => {
  it('each agent publishes its own host\'s verdict; the failing pool node is tainted; virt-handler runs, and labels schedulable, only where the placement selects', async () => {
    const verdicts = await firstVerdicts();
    expect(verdicts.noTun.metadata?.labels).toMatchObject({ [keys.familyLabel('kvm')]: 'true', [keys.familyLabel('tun')]: 'false', [keys.familyLabel('cpu-vendor')]: 'amd' });
    expect(verdicts.tainted.metadata?.labels?.[keys.familyLabel('kvm')]).toBe('false');
    expect(verdicts.tainted.spec?.taints).toEqual([expect.objectContaining({ key: keys.notReadyTaint, value: 'true', effect: 'NoSchedule' })]);
    expect((await readReport('tainted')).status?.checks.find((check) => check.id === 'dev.kvm')?.message).toMatch(/ENODEV/);
    // The stale node's agent is gone; the labels it left stay (no churn).
    expect(verdicts.stale.metadata?.labels?.[keys.labels.ready]).toBe('true');
    expect(hasNotReadyTaint(verdicts.hardware)).toBe(false);

    // KubeVirt installed after virtgate, with the recommended placement: virt-handler on the two
    // nodes labelled ready (the stale one's dead agent left its label), and only they are
    // schedulable to KubeVirt.
    expect([...(await syncHandlers())].sort()).toEqual([name('hardware'), name('stale')]);
    for (const role of ROLES) {
      const node = await readNode(role);
      const expected = role === 'hardware' || role === 'stale' ? 'true' : undefined;
      expect(node.metadata?.labels?.[SCHEDULABLE_LABEL], name(role)).toBe(expected);
      expect(node.status?.allocatable?.[KVM_RESOURCE], name(role)).toBe('1k');
    }
  });

  it('the aggregator reports the stale node unknown, and fails kubevirt.placement because the placement still selects it', async () => {
    const expected: Record<Role, string> = {
      hardware: 'ready',
      emulation: 'not-ready',
      none: 'not-ready',
      noTun: 'not-ready',
      tainted: 'not-ready',
      stale: 'unknown',
    };
    const report = await waitForGate('the aggregator to assess the six nodes as their hosts deserve', (r) =>
      r.readiness.total === ROLES.length && ROLES.every((role) => stateOf(r, role)?.state === expected[role]));
    const stale = stateOf(report, 'stale');
    expect(stale).toMatchObject({ unknownCause: 'stale', tier: 'hardware' });
    expect(stale?.heartbeatAgeSeconds).toBeGreaterThan(3600);

    const placement = report.checks.find((check) => check.id === 'kubevirt.placement');
    expect(placement?.status).toBe('fail');
    expect(placement?.message).toContain(`${name('stale')} (unknown)`);
    expect(placement?.message).not.toContain('still places new VMs');
    expect(placement?.evidence).toMatchObject({ selected: 2, selectedReady: 1, nodeSelector: { [keys.labels.ready]: 'true' } });
    const fresh = report.checks.find((check) => check.id === 'nodes.reports-fresh');
    expect(fresh?.status).toBe('warn');
    expect(fresh?.message).toContain(`${name('stale')} (stale)`);
  });

  it('virt-launcher pods bind only to nodes virt-handler serves; once those are full, the rest wait instead of spilling over', async () => {
    const kubevirt = await kubevirtNow();
    expect(kubevirt.placement.nodeSelector).toEqual({ [keys.labels.ready]: 'true' });
    expect(kubevirt.useEmulation).toBe(false);
    for (let n = 1; n <= 5; n += 1) await createVm('ready-set', { name: `ready-set-${n}` });
    const placement = await settled('ready-set', 5, 4);

    // Two VMs fill a node. The hardware node takes two; the stale node, still labelled ready by
    // its dead agent, takes the other two (see the header: virtgate does not pull those labels).
    expect(countByNode(placement)).toEqual({ [name('hardware')]: 2, [name('stale')]: 2 });
    const [message] = [...placement.pending.values()];
    // The fifth waits, although four other nodes have free CPUs and advertise KVM.
    expect(message).toMatch(/^0\/6 nodes are available/);
    expect(message).toContain('Insufficient cpu');
    await deleteBatch('ready-set');
  });

  it('the not-ready taint keeps VMs off the tainted node even for a KubeVirt without virtgate\'s placement', async () => {
    // A KubeVirt CR without spec.workloads.nodePlacement (a default install): virt-handler on every
    // node without a taint it does not tolerate. Each VM is pinned to one node through the VMI's
    // own nodeSelector.
    const unplaced: KubeVirtView = { placement: { nodeSelector: {}, tolerations: [] }, useEmulation: false };
    const served = await syncHandlers(unplaced);
    expect([...served].sort()).toEqual(NODE_NAMES.filter((node) => node !== name('tainted')).sort());
    await createVm('unplaced', { name: 'unplaced-tainted', nodeSelector: { [HOSTNAME]: name('tainted') } });
    await createVm('unplaced', { name: 'unplaced-no-tun', nodeSelector: { [HOSTNAME]: name('noTun') } });
    const placement = await settled('unplaced', 2, 1);
    // virtgate's taint is the node's only one: it kept virt-handler off (so KubeVirt never called
    // the node schedulable) and the launcher pod, which tolerates nothing, off too.
    expect(placement.pending.get('virt-launcher-unplaced-tainted')).toContain('1 node(s) had untolerated taint');
    expect((await readNode('tainted')).spec?.taints?.map((taint) => taint.key)).toEqual([keys.notReadyTaint]);
    // The untainted e2e-no-tun (not in the taint pool) does get it: labels protect only a KubeVirt
    // whose placement selects them, which is why the chart's NOTES recommend the placement.
    expect(placement.bound.get('virt-launcher-unplaced-no-tun')).toBe(name('noTun'));
    await deleteBatch('unplaced');

    // Back to the recommended placement: virt-handler leaves the nodes that are not ready, each
    // marking its node unschedulable on the way out (its SIGTERM handler).
    expect([...(await syncHandlers())].sort()).toEqual([name('hardware'), name('stale')]);
    expect((await readNode('noTun')).metadata?.labels?.[SCHEDULABLE_LABEL]).toBe('false');
  });

  it('once the policy allows emulation, the emulation node becomes eligible', async () => {
    // Allowing emulation is two settings: KubeVirt's useEmulation (its pods then ask for no KVM
    // device) and the agents' --allow-emulation. In a cluster the latter is one chart value for
    // every agent; here only the emulation node's agent is restarted with it, so the other nodes
    // keep the verdicts the other tests rely on.
    await custom.patchNamespacedCustomObject(
      { group: 'kubevirt.io', version: 'v1', plural: 'kubevirts', ...KUBEVIRT, body: { spec: { configuration: { developerConfiguration: { useEmulation: true } } } } },
      mergePatch,
    );
    await waitFor('KubeVirt useEmulation to read back', async () => ((await kubevirtNow()).useEmulation ? true : undefined));
    await createVm('emulation', { name: 'emulated', nodeSelector: { [HOSTNAME]: name('emulation') } });
    const before = await settled('emulation', 1, 0);
    expect(before.pending.get('virt-launcher-emulated')).toContain("didn't match Pod's node affinity/selector");

    expect(await agents.emulation?.stop()).toBe(0);
    await runAgent('emulation', ['--allow-emulation']);
    await labelled('emulation', 'true', 'emulation');
    // virt-operator's DaemonSet now selects the node: virt-handler starts and labels it schedulable,
    // and the pod that was waiting is bound.
    expect(await syncHandlers()).toContain(name('emulation'));
    const after = await settled('emulation', 1, 1);
    expect(after.bound.get('virt-launcher-emulated')).toBe(name('emulation'));
    const report = await waitForGate('the aggregator to count the emulation node', (r) => stateOf(r, 'emulation')?.state === 'emulation');
    expect(stateOf(report, 'emulation')?.tier).toBe('emulation');
    await deleteBatch('emulation');
  });

  it('after /dev/kvm disappears from the hardware host: without the taint KubeVirt still places VMs there, and the gate says until when; with the taint it places none', async () => {
    await removeDevice(hosts.hardware.root, 'kvm');
    const hardware = await labelled('hardware', 'false', 'emulation');
    expect(hardware.metadata?.labels?.[keys.familyLabel('kvm')]).toBe('false');
    // Its taint is refused by the share guard (one of the three pool nodes is tainted already).
    const refused = await waitFor('the hardware node\'s report of the refused taint', async () => (await readReport('hardware')).status?.taint.refused);
    expect(refused).toContain('the limit is 1');
    expect(hasNotReadyTaint(await readNode('hardware'))).toBe(false);

    // virt-handler leaves it abruptly (its SIGTERM handler's patch lost, as on the real node on
    // 2026-12-03, or the node's runtime gone): KubeVirt's label stays until the heartbeat is 5
    // minutes stale, and the launcher pods select only that.
    expect(await syncHandlers(undefined, 'abrupt')).not.toContain(name('hardware'));
    expect((await readNode('hardware')).metadata?.labels?.[SCHEDULABLE_LABEL]).toBe('true');
    for (let n = 1; n <= 5; n += 1) await createVm('label-only', { name: `label-only-${n}` });
    const labelOnly = await settled('label-only', 5, 5);
    // The stale and emulation nodes hold four: the fifth VM at least lands on the failed node.
    expect(countByNode(labelOnly)[name('hardware')]).toBeGreaterThanOrEqual(1);

    const warned = await waitForGate('the aggregator to say KubeVirt still places VMs on the hardware node', (r) =>
      (r.checks.find((check) => check.id === 'kubevirt.placement')?.message ?? '').includes(`${name('hardware')} (not-ready; the share guard refused virtgate's taint`));
    const placement = warned.checks.find((check) => check.id === 'kubevirt.placement');
    expect(placement?.message).toMatch(/KubeVirt still places new VMs on a node virtgate failed/);
    // Until when: the stand-in virt-handler's last heartbeat plus virt-controller's 5 minutes.
    const heartbeat = (await readNode('hardware')).metadata?.annotations?.['kubevirt.io/heartbeat'] ?? '';
    const until = new Date(Date.parse(heartbeat) + 5 * 60_000).toISOString().replace('.000Z', 'Z');
    expect(placement?.message).toContain(`until ${until}`);
    expect(placement?.evidence).toMatchObject({ stillSchedulable: [`${name('hardware')} (not-ready)`] });
    await deleteBatch('label-only');

    // With the share guard allowing it, the agent taints the node, and no new VM lands there.
    expect(await agents.hardware?.stop()).toBe(0);
    await runAgent('hardware', ['--taint-max-share', '1']);
    await waitFor('the hardware node to be tainted', async () => (hasNotReadyTaint(await readNode('hardware')) ? true : undefined));
    for (let n = 1; n <= 5; n += 1) await createVm('after-kvm-loss', { name: `after-kvm-loss-${n}` });
    const placementAfter = await settled('after-kvm-loss', 5, 4);
    expect(countByNode(placementAfter)).toEqual({ [name('emulation')]: 2, [name('stale')]: 2 });
    const [message] = [...placementAfter.pending.values()];
    expect(message).toContain('Insufficient cpu');
    // The hardware and the tainted node: each kept off by virtgate's taint alone.
    expect(message).toContain('2 node(s) had untolerated taint');
    const report = await waitForGate('the aggregator to see the hardware node tainted', (r) =>
      stateOf(r, 'hardware')?.state === 'not-ready' && !(r.checks.find((check) => check.id === 'kubevirt.placement')?.message ?? '').includes('still places new VMs'));
    expect(stateOf(report, 'hardware')?.failingChecks.map((check) => check.id)).toContain('dev.kvm');
    await deleteBatch('after-kvm-loss');
  });
});
