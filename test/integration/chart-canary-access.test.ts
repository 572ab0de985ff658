/**
 * `helm install` with canary.enabled into the real control plane, then the canary's identity, with
 * a real pod-bound token of the chart's canary ServiceAccount: it may write status.vmBoot of any
 * NodeValidation and create, follow and delete its own tiny VMI in its own namespace, and is
 * refused everything else, each refusal checked by who refused it (RBAC or the named admission
 * policy) and its message. Each VMI refusal changes one thing of the canary's own VMI, written here
 * by hand from what the issue and docs/security.md say a canary VMI may not have. The
 * agent, a real `virtgate agent` process with the chart's DaemonSet arguments and its own pod-bound
 * token, is refused status.vmBoot, and its next publish keeps what the canary wrote.
 *
 * KubeVirt's VMI CRD is installed (test/lab/support/kubevirt-crds.ts); no KubeVirt controller runs,
 * so a VMI here is only an object. The VirtualMachine CRD is not installed: the authorizer answers
 * before the API server looks the resource up, so RBAC's refusal is what a cluster with KubeVirt gets.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  AdmissionregistrationV1Api,
  AppsV1Api,
  AuthorizationV1Api,
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  RbacAuthorizationV1Api,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryVmi } from '../../canary/vmi.ts';
import { nodeKeys } from '../../core/kube/names.ts';
import { agentArgsFromDaemonSet, CHART_DIR, helmOk } from '../lab/chart/helm.ts';
import { jsonPatch, kubeConfigFrom, mergePatch, refusal } from '../lab/chart/cluster.ts';
import { runCli } from '../lab/cli.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode, podBoundIdentity } from '../lab/controlplane/identities.ts';
import { buildHost } from '../lab/hosts/build-host.ts';
import { type AgentProcess, startAgentProcess } from '../lab/processes/launch.ts';
import { installKubeVirtCrds, reportStatus } from '../lab/support/aggregator-cluster.ts';
import { installCrd } from '../lab/support/crds.ts';
import { createNodeValidation, NV } from '../lab/support/node-validations.ts';
import { waitFor } from '../lab/support/wait.ts';
import { useTempDirs } from '../lab/support/temp-dirs.ts';

const tempDir = useTempDirs();

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);

const NS = 'chart-canary';
const VMS = 'chart-canary-vms';
const RELEASE = 'canary-access';
const FULLNAME = `${RELEASE}-virtgate`;
const CANARY_SA = `${FULLNAME}-canary`;
const AGENT_SA = `${FULLNAME}-agent`;
const NODE_A = 'chart-canary-a';
const NODE_B = 'chart-canary-b';
const VMI = { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances' };
const VM = { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachines' };

// The canary's result, in the contract's shape (core/report/schema.ts, vmBootSchema).
const vmBoot = (reason: 'Booted' | 'GuestSilent') => ({
  status: reason === 'Booted' ? 'True' : 'False',
  reason,
  message: reason === 'Booted' ? 'VIRTGATE-CANARY-OK' : 'SeaBIOS (version 1.16.3)',
  runAt: '2026-12-05T10:02:00Z',
  lastTransitionTime: '2026-12-05T10:02:00Z',
  nodeClass: 'intel-xeon-hardware-5.14-metal',
  classFailedRuns: reason === 'Booted' ? 0 : 1,
  seconds: { scheduled: 0.4, launcherRunning: 2.1, vmiRunning: 6.25 },
  canaryVersion: '0.1.0',
});
const addVmBoot = (value: unknown) => [{ op: 'add', path: '/status/vmBoot', value }];

const vmiBody = (name: string) => ({
  apiVersion: 'kubevirt.io/v1',
  kind: 'VirtualMachineInstance',
  metadata: { name, labels: { 'app.kubernetes.io/name': 'virtgate-canary' } },
  spec: { domain: { devices: {}, resources: { requests: { memory: '64Mi' } } } },
});

type Vmi = { metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Record<string, any> };

/** The arguments the chart's CronJob passes the canary. */
async function cronJobArgs(): Promise<string[]> {
  const cronJob = await admin.makeApiClient(BatchV1Api).readNamespacedCronJob({ namespace: NS, name: CANARY_SA });
  return cronJob.spec?.jobTemplate.spec?.template.spec?.containers[0]?.args ?? [];
}

/** The disk image the chart's CronJob passes the canary (its --disk-image argument). */
async function chartDiskImage(): Promise<string> {
  const arg = (await cronJobArgs()).find((each) => each.startsWith('--disk-image='));
  if (arg === undefined) throw new Error('the chart\'s canary CronJob passes no --disk-image');
  return arg.slice('--disk-image='.length);
}

let vmiSerial = 0;
/** The VMI `virtgate canary` creates for `node` (canary/vmi.ts), with the chart's disk image and a name of its own. */
async function theCanarysVmi(node: string): Promise<Vmi> {
  const runId = `t${(vmiSerial++).toString(36)}`;
  const picked = { node, hostname: node, nodeClass: 'intel-xeon-hardware-6.12-metal', previous: undefined, classFailedRunsBefore: 0 };
  const body = canaryVmi(picked, { runId, namespace: VMS, diskImage: await chartDiskImage(), diskPullPolicy: 'IfNotPresent', firmwareUuid: randomUUID(), keys: nodeKeys() });
  return structuredClone(body) as unknown as Vmi;
}

type Status = Record<string, unknown>;
const statusOf = async (name: string) => ((await custom.getClusterCustomObject({ ...NV, name })) as { status: Status }).status;
const without = (status: Status, ...keys: string[]) => Object.fromEntries(Object.entries(status).filter(([k]) => !keys.includes(k)));
/** What the agent decided, without the timestamps its heartbeat may refresh while the test runs. */
const agentContent = (status: Status) => without(status, 'vmBoot', 'probedAt', 'heartbeatAt');

/** A 403 from the named admission policy whose message contains `text` (a regular expression). */
const byPolicy = (policy: string, text: string) => ({
  status: 403,
  message: expect.stringMatching(new RegExp(`ValidatingAdmissionPolicy '${policy}' .*denied request: .*${text}`)) as unknown as string,
});
/** A 403 from RBAC: the authorizer names the user and what it cannot do. */
const byRbac = (user: string, text: string) => ({
  status: 403,
  message: expect.stringMatching(new RegExp(`User "system:serviceaccount:${NS}:${user}" cannot ${text}`)) as unknown as string,
});

let asCanary: KubeConfig;
let canaryKubeconfig: string;
let asAgent: KubeConfig;
let agent: AgentProcess | undefined;

async function startAgent(profile: 'intel-metal' | 'no-vmx', kubeconfig: string): Promise<AgentProcess> {
  const daemonSet = await admin.makeApiClient(AppsV1Api).readNamespacedDaemonSet({ namespace: NS, name: AGENT_SA });
  const host = await buildHost(await tempDir('virtgate-canary-host-'), profile);
  return startAgentProcess([...agentArgsFromDaemonSet(daemonSet.spec?.template.spec?.containers[0]?.args, host.cliArgs), '--kubeconfig', kubeconfig], { NODE_NAME: NODE_A });
}

beforeAll(async () => {
  await installCrd(admin);
  await installKubeVirtCrds(admin, { cdi: false, vmis: { kubeconfig: cp.adminKubeconfig } });
  await core.createNamespace({ body: { metadata: { name: NS, labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } } });
  for (const name of [NODE_A, NODE_B]) await createNode(admin, name);
  await helmOk(
    cp.binDir,
    [
      'install', RELEASE, CHART_DIR, '--namespace', NS,
      '--set', 'canary.enabled=true', '--set', `canary.namespace=${VMS}`,
      // The CRD is this file's (installCrd above); no uninstall hook to wait for.
      '--set', 'crds.install=false', '--set', 'prune.onUninstall=false',
      '--set', 'agent.virtHostValidate.enabled=false',
    ],
    cp.adminKubeconfig,
  );
  canaryKubeconfig = (await podBoundIdentity(admin, cp, NS, CANARY_SA, NODE_B)).kubeconfig;
  asCanary = kubeConfigFrom(canaryKubeconfig);
  const agentIdentity = await podBoundIdentity(admin, cp, NS, AGENT_SA, NODE_A);
  asAgent = kubeConfigFrom(agentIdentity.kubeconfig);

  // Node B's report, written as its agent would (no agent runs there).
  await createNodeValidation(custom, {
    apiVersion: 'virtgate.io/v1alpha1',
    kind: 'NodeValidation',
    metadata: { name: NODE_B },
    spec: { nodeName: NODE_B },
    status: reportStatus({ heartbeatAt: new Date() }),
  });
  agent = await startAgent('intel-metal', agentIdentity.kubeconfig);
  await waitFor('the agent to publish its report', async () => ((await statusOf(NODE_A).catch(() => undefined))?.heartbeatAt ? true : undefined), 60_000);

  // New admission policies load asynchronously: wait (dry runs write nothing) until both refuse.
  const canaryReports = asCanary.makeApiClient(CustomObjectsApi);
  await waitFor('the canary admission policy to be enforced', async () => {
    const { status } = await refusal(() => canaryReports.patchClusterCustomObjectStatus({ ...NV, name: NODE_B, dryRun: 'All', body: [{ op: 'add', path: '/status/tier', value: 'none' }] }, jsonPatch));
    return status === 403 ? true : undefined;
  }, 60_000);
  await waitFor('the canary VMI admission policy to be enforced', async () => {
    const { status } = await refusal(() => canaryReports.createNamespacedCustomObject({ ...VMI, namespace: VMS, dryRun: 'All', body: vmiBody('policy-probe') }));
    return status === 403 ? true : undefined;
  }, 60_000);
  const agentReports = asAgent.makeApiClient(CustomObjectsApi);
  await waitFor('the agent admission policy on status.vmBoot to be enforced', async () => {
    const { status } = await refusal(() => agentReports.patchClusterCustomObjectStatus({ ...NV, name: NODE_A, dryRun: 'All', body: addVmBoot(vmBoot('Booted')) }, jsonPatch));
    return status === 403 ? true : undefined;
  }, 60_000);
});

afterAll(async () => {
  await agent?.stop();
});

describe('helm install with canary.enabled', () => {
  it("creates the canary's namespace (Pod Security privileged), ServiceAccount, roles and admission policy", async () => {
    const namespace = await core.readNamespace({ name: VMS });
    expect(namespace.metadata?.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'privileged', 'app.kubernetes.io/component': 'canary' });
    expect((await core.readNamespacedServiceAccount({ namespace: NS, name: CANARY_SA })).automountServiceAccountToken).toBe(true);
    const subjects = [{ kind: 'ServiceAccount', name: CANARY_SA, namespace: NS }];
    expect((await rbac.readClusterRoleBinding({ name: CANARY_SA })).subjects).toEqual(subjects);
    expect((await rbac.readNamespacedRoleBinding({ namespace: VMS, name: CANARY_SA })).subjects).toEqual(subjects);
    const admission = admin.makeApiClient(AdmissionregistrationV1Api);
    const policy = await admission.readValidatingAdmissionPolicy({ name: `${FULLNAME}-canary-nodevalidation` });
    expect(policy.spec?.failurePolicy).toBe('Fail');
    expect(policy.spec?.matchConditions?.[0]?.expression).toBe(`request.userInfo.username == 'system:serviceaccount:${NS}:${CANARY_SA}'`);
    expect((await admission.readValidatingAdmissionPolicyBinding({ name: `${FULLNAME}-canary-nodevalidation` })).spec?.validationActions).toEqual(['Deny']);
  });
});

describe("the canary, with a pod-bound token of the chart's canary ServiceAccount", () => {
  it('writes status.vmBoot of any NodeValidation, and the rest of the status stays as the agent wrote it', async () => {
    const reports = asCanary.makeApiClient(CustomObjectsApi);
    for (const [name, reason] of [[NODE_A, 'Booted'], [NODE_B, 'GuestSilent'], [NODE_B, 'Booted']] as const) {
      const before = await statusOf(name);
      await reports.patchClusterCustomObjectStatus({ ...NV, name, body: addVmBoot(vmBoot(reason)) }, jsonPatch);
      const after = await statusOf(name);
      expect(after.vmBoot, name).toEqual(vmBoot(reason));
      expect(agentContent(after), name).toEqual(agentContent(before));
    }
    // It reads what it needs: the nodes and the reports.
    expect((await asCanary.makeApiClient(CoreV1Api).listNode()).items.map((node) => node.metadata?.name)).toEqual(expect.arrayContaining([NODE_A, NODE_B]));
    const listed = (await reports.listClusterCustomObject(NV)) as { items: Array<{ metadata: { name: string } }> };
    expect(listed.items.map((item) => item.metadata.name)).toEqual(expect.arrayContaining([NODE_A, NODE_B]));
  });

  it('is refused every other status key by its admission policy, added, changed or removed', async () => {
    const reports = asCanary.makeApiClient(CustomObjectsApi);
    const policy = `${FULLNAME}-canary-nodevalidation`;
    const patch = (body: unknown[]) => refusal(() => reports.patchClusterCustomObjectStatus({ ...NV, name: NODE_A, body }, jsonPatch));
    const before = await statusOf(NODE_A);
    const only = (keys: string) => `may change only status.vmBoot of NodeValidation ${NODE_A}, not ${keys} \\(the agent's report\\)`;

    expect(await patch([{ op: 'add', path: '/status/ready', value: !before.ready }]), 'ready').toEqual(byPolicy(policy, only('status.ready')));
    expect(
      await patch([{ op: 'add', path: '/status/conditions', value: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-12-05T10:00:00Z', reason: 'Forged', message: 'forged' }] }]),
      'conditions',
    ).toEqual(byPolicy(policy, only('status.conditions')));
    expect(await patch([{ op: 'remove', path: '/status/heartbeatAt' }]), 'removing heartbeatAt').toEqual(byPolicy(policy, only('status.heartbeatAt')));
    expect(await patch([{ op: 'add', path: '/status/checks/0/observed/forged', value: true }]), "inside a check's observed").toEqual(byPolicy(policy, only('status.checks')));
    // A key the schema does not declare is pruned by the API server before any policy sees it: nothing is stored.
    await reports.patchClusterCustomObjectStatus({ ...NV, name: NODE_A, body: [{ op: 'add', path: '/status/forged', value: 'x' }] }, jsonPatch);
    expect(await statusOf(NODE_A), 'a new key').not.toHaveProperty('forged');
    // vmBoot together with another key: the whole request is refused.
    expect(await patch([...addVmBoot(vmBoot('GuestSilent')), { op: 'add', path: '/status/tier', value: 'none' }]), 'vmBoot and tier').toEqual(
      byPolicy(policy, only('status.tier')),
    );
    // The whole status replaced by vmBoot alone: every key of the agent's would go.
    const whole = await patch([{ op: 'add', path: '/status', value: { vmBoot: vmBoot('GuestSilent') } }]);
    expect(whole).toEqual(byPolicy(policy, only('status\\.\\w+(, status\\.\\w+)+')));
    const merge = await refusal(() => reports.patchClusterCustomObjectStatus({ ...NV, name: NODE_A, body: { status: { ready: !before.ready, vmBoot: vmBoot('GuestSilent') } } }, mergePatch));
    expect(merge, 'a merge patch of ready and vmBoot').toEqual(byPolicy(policy, only('status.ready')));

    const after = await statusOf(NODE_A);
    expect(agentContent(after)).toEqual(agentContent(before));
    expect(after.vmBoot).toEqual(before.vmBoot);
  });

  it("through /status, a change to spec or metadata is dropped by the API server (the status subresource keeps all but status)", async () => {
    const reports = asCanary.makeApiClient(CustomObjectsApi);
    const before = (await custom.getClusterCustomObject({ ...NV, name: NODE_B })) as { metadata: { labels?: Record<string, string> }; spec: unknown };
    await reports.patchClusterCustomObjectStatus(
      { ...NV, name: NODE_B, body: [{ op: 'add', path: '/metadata/labels', value: { forged: 'x' } }, { op: 'replace', path: '/spec/nodeName', value: NODE_A }] },
      jsonPatch,
    );
    const after = (await custom.getClusterCustomObject({ ...NV, name: NODE_B })) as typeof before;
    expect(after.metadata.labels).toEqual(before.metadata.labels);
    expect(after.spec).toEqual(before.spec);
  });

  it('is refused by RBAC: changing, creating or deleting a NodeValidation, VMIs elsewhere, Pods and VirtualMachines, Nodes, Secrets', async () => {
    const reports = asCanary.makeApiClient(CustomObjectsApi);
    const nodes = asCanary.makeApiClient(CoreV1Api);
    const nv = (name: string) => ({ apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name }, spec: { nodeName: name } });
    const cases: Array<[string, () => Promise<unknown>, string]> = [
      ['labels of a NodeValidation', () => reports.patchClusterCustomObject({ ...NV, name: NODE_A, body: { metadata: { labels: { forged: 'x' } } } }, mergePatch), 'patch resource "nodevalidations"'],
      ['spec of a NodeValidation', () => reports.patchClusterCustomObject({ ...NV, name: NODE_A, body: { spec: { nodeName: NODE_B } } }, mergePatch), 'patch resource "nodevalidations"'],
      ['replacing a status', () => reports.replaceClusterCustomObjectStatus({ ...NV, name: NODE_A, body: { ...nv(NODE_A), status: { vmBoot: vmBoot('Booted') } } }), 'update resource "nodevalidations/status"'],
      ['creating a NodeValidation', () => reports.createClusterCustomObject({ ...NV, body: nv('chart-canary-forged') }), 'create resource "nodevalidations"'],
      ['deleting a NodeValidation', () => reports.deleteClusterCustomObject({ ...NV, name: NODE_B }), 'delete resource "nodevalidations"'],
      ['a VMI in the release namespace', () => reports.createNamespacedCustomObject({ ...VMI, namespace: NS, body: vmiBody('forged') }), `create resource "virtualmachineinstances" in API group "kubevirt.io" in the namespace "${NS}"`],
      ['a VMI in default', () => reports.createNamespacedCustomObject({ ...VMI, namespace: 'default', body: vmiBody('forged') }), 'create resource "virtualmachineinstances" in API group "kubevirt.io" in the namespace "default"'],
      ['listing VMIs cluster-wide', () => reports.listClusterCustomObject(VMI), 'list resource "virtualmachineinstances" in API group "kubevirt.io" at the cluster scope'],
      ['a Pod in its own namespace', () => nodes.createNamespacedPod({ namespace: VMS, body: { metadata: { name: 'forged' }, spec: { containers: [{ name: 'c', image: 'x' }] } } }), `create resource "pods" in API group "" in the namespace "${VMS}"`],
      ['a VirtualMachine in its own namespace', () => reports.createNamespacedCustomObject({ ...VM, namespace: VMS, body: { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'forged' }, spec: {} } }), `create resource "virtualmachines" in API group "kubevirt.io" in the namespace "${VMS}"`],
      ['patching a Node', () => nodes.patchNode({ name: NODE_A, body: { metadata: { labels: { 'virtgate.io/ready': 'true' } } } }, mergePatch), 'patch resource "nodes"'],
      ['a Secret in its own namespace', () => nodes.listNamespacedSecret({ namespace: VMS }), `list resource "secrets" in API group "" in the namespace "${VMS}"`],
      ['exec into a launcher pod', () => nodes.connectPostNamespacedPodExec({ namespace: VMS, name: 'virt-launcher-x', command: 'sh' }), 'create resource "pods/exec"'],
    ];
    for (const [what, call, text] of cases) expect(await refusal(call), what).toEqual(byRbac(CANARY_SA, text));
    expect((await statusOf(NODE_B)).ready).toBe(true);
  });

  it('creates, reads, lists, watches and deletes VMIs in its own namespace, and reads launcher pods and their logs there', async () => {
    const objects = asCanary.makeApiClient(CustomObjectsApi);
    const own = await theCanarysVmi(NODE_A);
    const name = own.metadata.name;
    await objects.createNamespacedCustomObject({ ...VMI, namespace: VMS, body: own });
    await objects.getNamespacedCustomObject({ ...VMI, namespace: VMS, name });
    const listed = (await objects.listNamespacedCustomObject({ ...VMI, namespace: VMS, labelSelector: 'app.kubernetes.io/name=virtgate-canary' })) as { items: unknown[] };
    expect(listed.items.length).toBe(1);
    await objects.deleteNamespacedCustomObject({ ...VMI, namespace: VMS, name });
    expect((await asCanary.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: VMS })).items).toEqual([]);

    const review = asCanary.makeApiClient(AuthorizationV1Api);
    const may = async (attributes: Record<string, string>) =>
      (await review.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: attributes } } })).status?.allowed === true;
    expect(await may({ namespace: VMS, group: 'kubevirt.io', resource: 'virtualmachineinstances', verb: 'watch' })).toBe(true);
    expect(await may({ namespace: VMS, resource: 'pods', verb: 'watch' })).toBe(true);
    expect(await may({ namespace: VMS, resource: 'pods', subresource: 'log', verb: 'get' })).toBe(true);
    // Nothing beyond: no update of its VMIs, no other subresource, no deletecollection.
    expect(await may({ namespace: VMS, group: 'kubevirt.io', resource: 'virtualmachineinstances', verb: 'update' })).toBe(false);
    expect(await may({ namespace: VMS, group: 'subresources.kubevirt.io', resource: 'virtualmachineinstances', subresource: 'console', verb: 'get' })).toBe(false);
    expect(await may({ namespace: VMS, group: 'kubevirt.io', resource: 'virtualmachineinstances', verb: 'deletecollection' })).toBe(false);
    expect(await may({ namespace: VMS, resource: 'pods', verb: 'delete' })).toBe(false);
  });

  it('with RBAC widened by hand, its admission policy still refuses creating, deleting and relabelling NodeValidations', async () => {
    const name = `${CANARY_SA}-widened`;
    await rbac.createClusterRole({ body: { metadata: { name }, rules: [{ apiGroups: ['virtgate.io'], resources: ['nodevalidations'], verbs: ['create', 'patch', 'delete'] }] } });
    await rbac.createClusterRoleBinding({
      body: { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name }, subjects: [{ kind: 'ServiceAccount', name: CANARY_SA, namespace: NS }] },
    });
    try {
      const reports = asCanary.makeApiClient(CustomObjectsApi);
      const review = asCanary.makeApiClient(AuthorizationV1Api);
      await waitFor('the widened role to be authorized', async () =>
        (await review.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { group: 'virtgate.io', resource: 'nodevalidations', verb: 'delete' } } } })).status?.allowed ? true : undefined,
      );
      const policy = `${FULLNAME}-canary-nodevalidation`;
      expect(
        await refusal(() => reports.createClusterCustomObject({ ...NV, body: { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: 'chart-canary-forged' }, spec: { nodeName: 'chart-canary-forged' } } })),
        'create',
      ).toEqual(byPolicy(policy, "may not create a NodeValidation \\(chart-canary-forged\\): each node's agent owns its report"));
      expect(await refusal(() => reports.deleteClusterCustomObject({ ...NV, name: NODE_B })), 'delete').toEqual(
        byPolicy(policy, `may not delete a NodeValidation \\(${NODE_B}\\)`),
      );
      expect(await refusal(() => reports.patchClusterCustomObject({ ...NV, name: NODE_B, body: { metadata: { labels: { forged: 'x' } } } }, mergePatch)), 'labels').toEqual(
        byPolicy(policy, `may not change the labels, annotations, finalizers or owner references of NodeValidation ${NODE_B}`),
      );
    } finally {
      await rbac.deleteClusterRoleBinding({ name });
      await rbac.deleteClusterRole({ name });
    }
    expect((await statusOf(NODE_B)).vmBoot).toEqual(vmBoot('Booted'));
  });
});

describe("the canary's VMIs, narrowed by its admission policy to the one tiny VM it needs", () => {
  const policy = `${FULLNAME}-canary-vmi`;
  const create = (body: unknown, namespace = VMS) => refusal(() => asCanary.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({ ...VMI, namespace, body }));
  /** The canary's own VMI with one change made by `change`. */
  const changed = async (change: (vmi: Vmi) => void) => {
    const vmi = await theCanarysVmi(NODE_A);
    change(vmi);
    return vmi;
  };
  /**
   * A refusal naming exactly these fields (in any order: the policy walks the object's maps, whose
   * keys the API server holds in no particular order).
   */
  const oneTinyVm = (fields: string) => {
    const want = fields.split(', ').sort();
    return {
      status: 403,
      message: expect.stringMatching(
        new RegExp(`ValidatingAdmissionPolicy '${policy}' .*denied request: a virtgate canary VMI is one tiny VM with one disk and nothing else .*; it may not set (${want.map(() => '[\\w.]+').join(', ')})$`),
      ) as unknown as string,
      fields: want,
    };
  };
  /** The refusal, with the fields its message names, sorted. */
  const createNaming = async (body: unknown) => {
    const outcome = await create(body);
    const named = /; it may not set (.*)$/.exec(outcome.message)?.[1];
    return named === undefined ? outcome : { ...outcome, fields: named.split(', ').sort() };
  };

  it("admits the canary's own VMI, also as KubeVirt v1.9.0's mutating webhook fills it in", async () => {
    const plain = await theCanarysVmi(NODE_A);
    expect(await create(plain, VMS)).toEqual({ status: 0, message: '' });
    // What KubeVirt v1.9.0's webhook adds before validation, by hand from its source, in a cluster
    // whose KubeVirt CR sets evictionStrategy LiveMigrate, cpuRequest 250m, maximumCpuSockets 4 and
    // maximumGuestMemory 256Mi (pkg/defaults/defaults.go: architecture, machine type, CPU model,
    // guest memory from the request, the CR's eviction strategy, a CPU request only when the CR's
    // differs from 100m, the hot-plug ceilings; no sockets or threads, which it sets only when cores,
    // sockets and threads are all unset; api/core/v1: ACPI on; vmi-mutator.go: the PCI topology annotation).
    const defaulted = await changed((vmi) => {
      vmi.metadata.annotations = { 'kubevirt.io/pci-topology-version': 'v3' };
      Object.assign(vmi.spec, { architecture: 'amd64', evictionStrategy: 'LiveMigrate' });
      vmi.spec.domain.machine = { type: 'q35' };
      Object.assign(vmi.spec.domain.cpu, { model: 'host-model', maxSockets: 4 });
      vmi.spec.domain.memory = { guest: '64Mi', maxGuest: '256Mi' };
      vmi.spec.domain.resources.requests.cpu = '250m';
      // api/core/v1 defaults: ACPI's FeatureState, enabled unless said otherwise.
      vmi.spec.domain.features = { acpi: { enabled: true } };
    });
    expect(await create(defaulted, VMS)).toEqual({ status: 0, message: '' });
    const objects = asCanary.makeApiClient(CustomObjectsApi);
    for (const name of [plain.metadata.name, defaulted.metadata.name]) await objects.deleteNamespacedCustomObject({ ...VMI, namespace: VMS, name });
  });

  it('refuses any other disk image, saying which one the chart configures and what to change', async () => {
    const image = await chartDiskImage();
    const other = await changed((vmi) => {
      vmi.spec.volumes[0].containerDisk.image = 'quay.io/someone/any-os:latest';
    });
    expect(await create(other)).toEqual(
      byPolicy(
        policy,
        `boots only the disk image the chart configures \\(canary.diskImage: ${image.replace(/[.]/g, '\\.')}\\), not quay\\.io/someone/any-os:latest: set canary.diskImage in the chart values and run helm upgrade`,
      ),
    );
  });

  it('refuses more CPU or memory than the canary uses, and elevated CPU or memory features', async () => {
    const size = (asked: string) => byPolicy(policy, `a virtgate canary VMI has one vCPU and 64Mi of memory; canary-\\w+-t\\w+ asks for ${asked}`);
    expect(await create(await changed((vmi) => { vmi.spec.domain.cpu.cores = 4; })), 'cores').toEqual(size('cores 4, sockets 1, threads 1, memory 64Mi'));
    expect(await create(await changed((vmi) => { vmi.spec.domain.cpu.sockets = 8; })), 'sockets').toEqual(size('cores 1, sockets 8'));
    expect(await create(await changed((vmi) => { vmi.spec.domain.resources.requests.memory = '16Gi'; })), 'memory').toEqual(size('cores 1, sockets 1, threads 1, memory 16Gi'));
    expect(await create(await changed((vmi) => { vmi.spec.domain.resources.requests.cpu = '8'; })), 'CPU request').toEqual(size('.*CPU request 8$'));
    expect(await create(await changed((vmi) => { vmi.spec.domain.memory = { guest: '8Gi' }; })), 'guest memory').toEqual(size('cores 1'));
    expect(await createNaming(await changed((vmi) => { vmi.spec.domain.resources.limits = { memory: '64Mi' }; })), 'limits').toEqual(oneTinyVm('spec.domain.resources.limits'));
    expect(await createNaming(await changed((vmi) => { vmi.spec.domain.cpu.dedicatedCpuPlacement = true; })), 'dedicated CPUs').toEqual(oneTinyVm('spec.domain.cpu.dedicatedCpuPlacement'));
    expect(await createNaming(await changed((vmi) => { vmi.spec.domain.cpu.realtime = {}; })), 'realtime').toEqual(oneTinyVm('spec.domain.cpu.realtime'));
    expect(await createNaming(await changed((vmi) => { vmi.spec.domain.cpu.features = [{ name: 'vmx', policy: 'require' }]; })), 'CPU features').toEqual(oneTinyVm('spec.domain.cpu.features'));
    expect(await createNaming(await changed((vmi) => { vmi.spec.domain.memory = { guest: '64Mi', hugepages: { pageSize: '2Mi' } }; })), 'hugepages').toEqual(oneTinyVm('spec.domain.memory.hugepages'));
    expect(await createNaming(await changed((vmi) => { vmi.spec.domain.launchSecurity = { sev: {} }; })), 'launch security').toEqual(oneTinyVm('spec.domain.launchSecurity'));
  });

  it('refuses other disks, volumes, devices, networks, credentials and firmware', async () => {
    expect(
      await create(await changed((vmi) => {
        vmi.spec.volumes.push({ name: 'host', hostDisk: { path: '/etc/shadow', type: 'Disk' } });
        vmi.spec.domain.devices.disks.push({ name: 'host', disk: { bus: 'virtio' } });
      })),
      'a hostDisk',
    ).toEqual(byPolicy(policy, 'has exactly one disk, named canary, on the virtio bus, backed by one containerDisk .*; canary-[\\w-]+ has volumes \\[canary: containerDisk, host: hostDisk\\] and disks \\[canary, host\\]'));
    expect(
      await create(await changed((vmi) => { vmi.spec.volumes[0] = { name: 'canary', persistentVolumeClaim: { claimName: 'someone-elses-data' } }; })),
      'a PVC instead of the containerDisk',
    ).toEqual(byPolicy(policy, 'has volumes \\[canary: persistentVolumeClaim\\]'));
    expect(await create(await changed((vmi) => { vmi.spec.volumes[0].containerDisk.path = '/disk/other.img'; })), 'another path in the image').toEqual(byPolicy(policy, 'has volumes \\[canary: containerDisk\\]'));
    expect(await create(await changed((vmi) => { vmi.spec.domain.devices.disks[0].disk.bus = 'sata'; })), 'another bus').toEqual(byPolicy(policy, 'on the virtio bus'));
    expect(
      await createNaming(await changed((vmi) => {
        vmi.spec.domain.devices.hostDevices = [{ name: 'gpu', deviceName: 'nvidia.com/GA102' }];
        vmi.spec.domain.devices.gpus = [{ name: 'gpu2', deviceName: 'nvidia.com/GA102' }];
        vmi.spec.domain.devices.filesystems = [{ name: 'fs', virtiofs: {} }];
      })),
      'host devices, GPUs, filesystems',
    ).toEqual(oneTinyVm('spec.domain.devices.filesystems, spec.domain.devices.gpus, spec.domain.devices.hostDevices'));
    expect(
      await createNaming(await changed((vmi) => {
        vmi.spec.domain.devices.interfaces = [{ name: 'default', masquerade: {} }];
        vmi.spec.networks = [{ name: 'default', pod: {} }];
      })),
      'a network',
    ).toEqual(oneTinyVm('spec.networks, spec.domain.devices.interfaces'));
    expect(await create(await changed((vmi) => { vmi.spec.domain.devices.autoattachPodInterface = true; })), 'the pod network by default').toEqual(
      byPolicy(policy, 'has no network interface, graphics device or memory balloon'),
    );
    expect(
      await createNaming(await changed((vmi) => { vmi.spec.accessCredentials = [{ sshPublicKey: { source: { secret: { secretName: 'keys' } }, propagationMethod: { noCloud: {} } } }]; })),
      'access credentials',
    ).toEqual(oneTinyVm('spec.accessCredentials'));
    expect(await createNaming(await changed((vmi) => { vmi.spec.domain.firmware.kernelBoot = { container: { image: 'quay.io/someone/kernel' } }; })), 'a kernel boot').toEqual(
      oneTinyVm('spec.domain.firmware.kernelBoot'),
    );
    expect(await createNaming(await changed((vmi) => { vmi.spec.domain.features = { smm: { enabled: true } }; })), 'features').toEqual(oneTinyVm('spec.domain.features.smm'));
    expect(await createNaming(await changed((vmi) => { vmi.spec.domain.features = { acpi: { enabled: false } }; })), 'ACPI off').toEqual(oneTinyVm('spec.domain.features.acpi.enabled'));
  });

  it('refuses hook sidecars and other annotations, and VMIs without its labels', async () => {
    expect(
      await create(await changed((vmi) => { vmi.metadata.annotations = { 'hooks.kubevirt.io/hookSidecars': '[{"image": "quay.io/someone/sidecar"}]' }; })),
      'a hook sidecar',
    ).toEqual(byPolicy(policy, 'has no annotations of its own .*: hooks\\.kubevirt\\.io/hookSidecars$'));
    expect(await create(await changed((vmi) => { vmi.metadata.labels = { 'app.kubernetes.io/name': 'virtgate-canary' }; })), 'without its run and node labels').toEqual(
      byPolicy(policy, 'carries exactly the labels .* has app\\.kubernetes\\.io/name=virtgate-canary$'),
    );
    expect(await create(await changed((vmi) => { vmi.metadata.labels = { ...vmi.metadata.labels, 'app.kubernetes.io/name': 'web' }; })), 'another app').toEqual(
      byPolicy(policy, 'carries exactly the labels'),
    );
  });

  it('refuses placement other than one node by name and tolerating virtgate\'s not-ready taint', async () => {
    const placed = (text: string) => byPolicy(policy, `is placed on one node by name \\(nodeSelector kubernetes\\.io/hostname only\\) and tolerates only virtgate\\.io/not-ready; canary-[\\w-]+ has ${text}`);
    expect(await create(await changed((vmi) => { vmi.spec.tolerations = [{ operator: 'Exists' }]; })), 'every taint').toEqual(placed('nodeSelector kubernetes\\.io/hostname and tolerations \\(every key\\) Exists'));
    expect(await create(await changed((vmi) => { vmi.spec.tolerations.push({ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }); })), 'the control plane').toEqual(
      placed('.*tolerations virtgate\\.io/not-ready Exists, node-role\\.kubernetes\\.io/control-plane Exists'),
    );
    expect(await create(await changed((vmi) => { vmi.spec.nodeSelector = { 'node-role.kubernetes.io/control-plane': '' }; })), 'by role').toEqual(placed('nodeSelector node-role\\.kubernetes\\.io/control-plane'));
    expect(
      await createNaming(await changed((vmi) => { vmi.spec.affinity = { nodeAffinity: {} }; vmi.spec.priorityClassName = 'system-node-critical'; })),
      'affinity and priority',
    ).toEqual(oneTinyVm('spec.affinity, spec.priorityClassName'));
  });

  it('deletes only VMIs labelled as its own', async () => {
    // Someone else's VMI in the canary's namespace: not labelled as the canary's.
    await custom.createNamespacedCustomObject({ ...VMI, namespace: VMS, body: { ...vmiBody('someone-elses'), metadata: { name: 'someone-elses', labels: { 'app.kubernetes.io/name': 'web' } } } });
    try {
      expect(await refusal(() => asCanary.makeApiClient(CustomObjectsApi).deleteNamespacedCustomObject({ ...VMI, namespace: VMS, name: 'someone-elses' }))).toEqual(
        byPolicy(policy, 'may delete only its own VMIs \\(labelled app\\.kubernetes\\.io/name=virtgate-canary\\), not someone-elses'),
      );
    } finally {
      await custom.deleteNamespacedCustomObject({ ...VMI, namespace: VMS, name: 'someone-elses' });
    }
  });

  it('with RBAC widened by hand: still no VMI elsewhere, no change to a VMI, no other kind of KubeVirt object', async () => {
    const name = `${CANARY_SA}-widened-vmis`;
    await rbac.createClusterRole({ body: { metadata: { name }, rules: [{ apiGroups: ['kubevirt.io'], resources: ['virtualmachineinstances', 'kubevirts'], verbs: ['create', 'patch'] }] } });
    await rbac.createClusterRoleBinding({
      body: { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name }, subjects: [{ kind: 'ServiceAccount', name: CANARY_SA, namespace: NS }] },
    });
    const own = await theCanarysVmi(NODE_A);
    try {
      const review = asCanary.makeApiClient(AuthorizationV1Api);
      await waitFor('the widened role to be authorized', async () =>
        (await review.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { namespace: 'default', group: 'kubevirt.io', resource: 'virtualmachineinstances', verb: 'create' } } } })).status?.allowed ? true : undefined,
      );
      const objects = asCanary.makeApiClient(CustomObjectsApi);
      expect(await create({ ...own, metadata: { ...own.metadata, namespace: 'default' } }, 'default'), 'another namespace').toEqual(
        byPolicy(policy, `runs its VMs only in canary.namespace \\(${VMS}\\), not in default`),
      );
      // KubeVirt's own CR (its CRD is installed here; VirtualMachines' is not): any kind but VMIs is refused.
      const kubevirtCr = { apiVersion: 'kubevirt.io/v1', kind: 'KubeVirt', metadata: { name: 'forged' }, spec: {} };
      expect(await refusal(() => objects.createNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', plural: 'kubevirts', namespace: VMS, body: kubevirtCr })), 'a KubeVirt CR').toEqual(
        byPolicy(policy, 'creates and deletes only VirtualMachineInstances, not kubevirts'),
      );
      await objects.createNamespacedCustomObject({ ...VMI, namespace: VMS, body: own });
      expect(
        await refusal(() => objects.patchNamespacedCustomObject({ ...VMI, namespace: VMS, name: own.metadata.name, body: { spec: { domain: { resources: { requests: { memory: '16Gi' } } } } } }, mergePatch)),
        'a change to its own VMI',
      ).toEqual(byPolicy(policy, `may not change VirtualMachineInstance ${own.metadata.name}: it only creates its own and deletes them`));
    } finally {
      await rbac.deleteClusterRoleBinding({ name });
      await rbac.deleteClusterRole({ name });
      await custom.deleteNamespacedCustomObject({ ...VMI, namespace: VMS, name: own.metadata.name }).catch(() => undefined);
    }
  });

  it('`virtgate canary` with a disk image the chart did not configure: exit 2, nothing published, and the message says what to change', async () => {
    const before = await statusOf(NODE_A);
    const args = (await cronJobArgs()).map((arg) =>
      arg.startsWith('--disk-image=') ? '--disk-image=registry.example/someone/any-os:1' : arg,
    );
    const run = await runCli([...args, '--kubeconfig', canaryKubeconfig]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /cannot create the canary VMI for node [\w-]+: HTTP 403: .*canary-vmi' .*boots only the disk image the chart configures \(canary\.diskImage: [^)]+\), not registry\.example\/someone\/any-os:1: set canary\.diskImage in the chart values and run helm upgrade.*\. The chart lets the canary create only the VMI its values describe/,
    );
    expect((await statusOf(NODE_A)).vmBoot).toEqual(before.vmBoot);
    expect(((await custom.listNamespacedCustomObject({ ...VMI, namespace: VMS })) as { items: unknown[] }).items).toEqual([]);
  });
});

describe('the agent and status.vmBoot', () => {
  it('the agent is refused adding, changing or removing status.vmBoot by its admission policy', async () => {
    const reports = asAgent.makeApiClient(CustomObjectsApi);
    const policy = `${FULLNAME}-agent-nodevalidation`;
    const patch = (body: unknown[]) => refusal(() => reports.patchClusterCustomObjectStatus({ ...NV, name: NODE_A, body }, jsonPatch));
    const refused = (verb: string) => byPolicy(policy, `may not ${verb} status.vmBoot of NodeValidation ${NODE_A}: only the VM canary writes it`);
    expect((await statusOf(NODE_A)).vmBoot).toEqual(vmBoot('Booted'));
    expect(await patch(addVmBoot(vmBoot('GuestSilent'))), 'change').toEqual(refused('change'));
    expect(await patch([{ op: 'remove', path: '/status/vmBoot' }]), 'remove').toEqual(refused('remove'));
    // The old way to write a report, the whole status at once, would drop the canary's key.
    expect(await patch([{ op: 'add', path: '/status', value: without(await statusOf(NODE_A), 'vmBoot') }]), 'whole status').toEqual(refused('remove'));

    await custom.patchClusterCustomObjectStatus({ ...NV, name: NODE_A, body: [{ op: 'remove', path: '/status/vmBoot' }] }, jsonPatch);
    expect(await patch(addVmBoot(vmBoot('Booted'))), 'add').toEqual(refused('add'));
    await custom.patchClusterCustomObjectStatus({ ...NV, name: NODE_A, body: addVmBoot(vmBoot('Booted')) }, jsonPatch);
  });

  it("the agent's next publish, a whole new verdict, keeps the canary's status.vmBoot, with none of its writes refused", async () => {
    const before = await statusOf(NODE_A);
    await agent?.stop();
    // Another host under the same node: a different verdict, so every key of the agent's is written.
    agent = await startAgent('no-vmx', (await podBoundIdentity(admin, cp, NS, AGENT_SA, NODE_A)).kubeconfig);
    const after = await waitFor('the agent to publish the new verdict', async () => {
      const status = await statusOf(NODE_A);
      return status.tier !== before.tier && status.tier !== undefined ? status : undefined;
    }, 60_000);
    expect(after.vmBoot).toEqual(vmBoot('Booted'));
    expect(after.heartbeatAt).not.toBe(before.heartbeatAt);
    const writes = (await agent.series('virtgate_agent_api_writes_total')) ?? [];
    expect(writes.filter((write) => write.labels.includes('resource="nodevalidations/status"')).reduce((sum, write) => sum + write.value, 0)).toBeGreaterThan(0);
    expect(writes.filter((write) => !/code="2\d\d"/.test(write.labels))).toEqual([]);
  });
});
