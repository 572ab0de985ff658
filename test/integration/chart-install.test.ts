/**
 * `helm install` of the chart into the real control plane, then the two identities it creates,
 * each with a real pod-bound token: the agent publishes on its own node and is refused everything
 * else (by RBAC or by the admission policy, each refusal checked by its message); the aggregator
 * reads and is refused every write. (`helm test` runs for real, in its pod, on the real node:
 * test/node/chart.test.ts.)
 */
import path from 'node:path';
import {
  AdmissionregistrationV1Api,
  ApiextensionsV1Api,
  AppsV1Api,
  AuthorizationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  NetworkingV1Api,
  PolicyV1Api,
  RbacAuthorizationV1Api,
  Watch,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, startAgentProcess } from '../lab/processes/launch.ts';
import { agentArgsFromDaemonSet } from '../lab/chart/helm.ts';
import {
  jsonPatch,
  keysUnder,
  kubeConfigFrom,
  mergePatch,
  nodeValidationNames,
  nodeView,
  refusal,
  strategicMergePatch,
  waitForAgentPolicy,
} from '../lab/chart/cluster.ts';
import { CHART_DIR, helm, helmOk } from '../lab/chart/helm.ts';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode, podBoundIdentity } from '../lab/controlplane/identities.ts';
import { writeKubeconfig } from '../lab/controlplane/kubeconfig.ts';
import { buildHost } from '../lab/hosts/build-host.ts';
import { statusOfCall, waitFor } from '../lab/support/wait.ts';
import { useTempDirs } from '../lab/support/temp-dirs.ts';

const tempDir = useTempDirs();

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);

const NS = 'chart-install';
const RELEASE = 'virtgate';
const NODE_A = 'chart-install-a';
const NODE_B = 'chart-install-b';
const POOL = 'chart.test/pool=install';
const FOREIGN_TAINT = 'chart.test/dedicated=db:NoSchedule';
const NV = { group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations' };
const nodeValidation = (name: string, nodeName = name) => ({
  apiVersion: 'virtgate.io/v1alpha1',
  kind: 'NodeValidation',
  metadata: { name },
  spec: { nodeName },
});

const EXTENSIONS = path.join(PACKAGE_ROOT, 'test/lab/chart/values-install-extensions.yaml');

let installOutput = '';
let agent: AgentProcess | undefined;

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: NS, labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } } });
  for (const name of [NODE_A, NODE_B]) {
    await createNode(admin, name, {
      labels: { 'chart.test/pool': 'install', 'chart.test/team': 'vm' },
      taints: [{ key: 'chart.test/dedicated', value: 'db', effect: 'NoSchedule' }],
    });
  }
  // The not-ready policy, so the agent's own taint goes through the admission policy too; the
  // DaemonSet would run virt-host-validate, which this machine's fixture hosts cannot feed.
  installOutput = await helmOk(
    cp.binDir,
    [
      // The NodeValidation CRD may exist already, created without Helm by an earlier test file (as
      // a chart that shipped it in crds/ did): take it over, as docs/install.md says to once.
      'install', RELEASE, CHART_DIR, '--namespace', NS, '--take-ownership',
      '--set', 'agent.taint.policy=not-ready',
      '--set', `agent.taint.poolSelector=${POOL}`,
      '--set', 'agent.virtHostValidate.enabled=false',
      '-f', EXTENSIONS,
    ],
    cp.adminKubeconfig,
  );
});

afterAll(async () => {
  await agent?.stop();
});

describe('helm install', () => {
  it('creates every object of the chart', async () => {
    const status = await helmOk(cp.binDir, ['status', RELEASE, '--namespace', NS, '-o', 'json'], cp.adminKubeconfig);
    expect((JSON.parse(status) as { info: { status: string } }).info.status).toBe('deployed');

    const crd = await admin.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name: 'nodevalidations.virtgate.io' });
    expect(crd.status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');

    const apps = admin.makeApiClient(AppsV1Api);
    const daemonSet = await apps.readNamespacedDaemonSet({ namespace: NS, name: 'virtgate-agent' });
    expect(daemonSet.spec?.template.spec?.containers[0]?.securityContext?.privileged).toBe(true);
    expect(daemonSet.spec?.template.spec?.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(daemonSet.spec?.updateStrategy?.rollingUpdate?.maxUnavailable).toBe('10%');
    const deployment = await apps.readNamespacedDeployment({ namespace: NS, name: 'virtgate-aggregator' });
    expect(deployment.spec?.template.spec?.containers[0]?.securityContext?.readOnlyRootFilesystem).toBe(true);
    const service = await core.readNamespacedService({ namespace: NS, name: 'virtgate-aggregator' });
    expect(service.spec?.ports?.[0]?.port).toBe(8080);
    for (const name of ['virtgate-agent', 'virtgate-aggregator']) {
      expect((await core.readNamespacedServiceAccount({ namespace: NS, name })).automountServiceAccountToken).toBe(true);
    }

    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    for (const name of ['virtgate-agent', 'virtgate-aggregator']) {
      await rbac.readClusterRole({ name });
      const binding = await rbac.readClusterRoleBinding({ name });
      expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name, namespace: NS }]);
    }
    await rbac.readNamespacedRole({ namespace: 'default', name: 'virtgate-agent-events' });
    await rbac.readNamespacedRoleBinding({ namespace: 'default', name: 'virtgate-agent-events' });

    const admission = admin.makeApiClient(AdmissionregistrationV1Api);
    for (const name of ['virtgate-agent-node', 'virtgate-agent-nodevalidation', 'virtgate-agent-event']) {
      const policy = await admission.readValidatingAdmissionPolicy({ name });
      expect(policy.spec?.failurePolicy).toBe('Fail');
      expect((await admission.readValidatingAdmissionPolicyBinding({ name })).spec?.policyName).toBe(name);
    }

    // The prune hook's objects exist only while `helm uninstall` runs.
    expect(await statusOfCall(() => core.readNamespacedServiceAccount({ namespace: NS, name: 'virtgate-prune' }))).toBe(404);
    expect(await statusOfCall(() => rbac.readClusterRole({ name: 'virtgate-prune' }))).toBe(404);
  });

  it('the API server accepts and keeps every extension point as rendered', async () => {
    const apps = admin.makeApiClient(AppsV1Api);
    const daemonSet = await apps.readNamespacedDaemonSet({ namespace: NS, name: 'virtgate-agent' });
    const agentPod = daemonSet.spec?.template.spec;
    expect(agentPod?.priorityClassName).toBe('system-node-critical');
    expect(daemonSet.spec?.revisionHistoryLimit).toBe(4);
    expect(daemonSet.spec?.updateStrategy?.type).toBe('RollingUpdate');
    expect(agentPod?.securityContext).toEqual({ seccompProfile: { type: 'RuntimeDefault' } });
    expect(agentPod?.containers[0]?.env).toContainEqual({ name: 'HTTPS_PROXY', value: 'http://proxy.example.com:3128' });
    expect(agentPod?.containers[0]?.volumeMounts).toContainEqual({ name: 'scratch', mountPath: '/scratch' });
    expect(agentPod?.volumes).toContainEqual({ name: 'scratch', emptyDir: { sizeLimit: '8Mi' } });

    const deployment = await apps.readNamespacedDeployment({ namespace: NS, name: 'virtgate-aggregator' });
    expect(deployment.spec?.replicas).toBe(2);
    expect(deployment.spec?.strategy).toEqual({ type: 'Recreate' });
    expect(deployment.spec?.revisionHistoryLimit).toBe(3);
    const aggregatorPod = deployment.spec?.template.spec;
    expect(aggregatorPod?.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } });
    expect(aggregatorPod?.containers[0]?.env).toContainEqual({ name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } });
    expect(aggregatorPod?.containers[0]?.volumeMounts).toContainEqual({ name: 'scratch', mountPath: '/scratch' });
    expect(aggregatorPod?.containers[0]?.image).toBe('mirror.example.com/virtgate/virtgate-aggregator:0.1.0');
    expect(aggregatorPod?.imagePullSecrets).toEqual([{ name: 'mirror-cred' }, { name: 'regcred' }]);
    expect(agentPod?.imagePullSecrets).toEqual([{ name: 'mirror-cred' }, { name: 'regcred' }]);
    expect(aggregatorPod?.topologySpreadConstraints).toEqual([
      { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: deployment.spec?.selector.matchLabels } },
    ]);
    expect(aggregatorPod?.containers[0]?.livenessProbe).toMatchObject({ httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 30, initialDelaySeconds: 5, timeoutSeconds: 5, failureThreshold: 3 });
    expect(aggregatorPod?.containers[0]?.readinessProbe).toMatchObject({ httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 6 });

    const ingress = await admin.makeApiClient(NetworkingV1Api).readNamespacedIngress({ namespace: NS, name: 'virtgate-aggregator' });
    expect(ingress.spec?.ingressClassName).toBe('nginx');
    expect(ingress.spec?.tls).toEqual([{ hosts: ['virtgate.example.com'], secretName: 'virtgate-tls' }]);
    expect(ingress.spec?.rules).toEqual([
      { host: 'virtgate.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'virtgate-aggregator', port: { name: 'http' } } } }] } },
    ]);

    const budget = await admin.makeApiClient(PolicyV1Api).readNamespacedPodDisruptionBudget({ namespace: NS, name: 'virtgate-aggregator' });
    expect(budget.spec?.minAvailable).toBe(1);
    expect(budget.spec?.unhealthyPodEvictionPolicy).toBe('AlwaysAllow');
    expect(budget.spec?.selector?.matchLabels).toEqual(deployment.spec?.selector.matchLabels);

    const networkPolicy = await admin.makeApiClient(NetworkingV1Api).readNamespacedNetworkPolicy({ namespace: NS, name: 'virtgate-aggregator' });
    expect(networkPolicy.spec?.podSelector?.matchLabels).toEqual(deployment.spec?.selector.matchLabels);
    // client-node names the field _from (from is a reserved word in its generator).
    expect(networkPolicy.spec?.ingress?.[0]?._from).toEqual([
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'virtgate', 'app.kubernetes.io/instance': RELEASE, 'app.kubernetes.io/component': 'test' } } },
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
    ]);

    // The helm test hook is not installed: it exists only while `helm test` runs.
    expect(await statusOfCall(() => core.readNamespacedPod({ namespace: NS, name: 'virtgate-test' }))).toBe(404);
    expect(await statusOfCall(() => admin.makeApiClient(RbacAuthorizationV1Api).readClusterRole({ name: 'virtgate-test' }))).toBe(404);
  });

  it('does not own the namespace it was installed into', async () => {
    const manifest = await helmOk(cp.binDir, ['get', 'manifest', RELEASE, '--namespace', NS], cp.adminKubeconfig);
    expect(manifest).not.toMatch(/^kind: Namespace$/m);
    const namespace = await core.readNamespace({ name: NS });
    expect(namespace.metadata?.labels?.['app.kubernetes.io/managed-by']).toBeUndefined();
    expect(namespace.metadata?.annotations?.['meta.helm.sh/release-name']).toBeUndefined();
  });

  it('prints NOTES with the KubeVirt placement snippet and how to open the aggregator page', () => {
    expect(installOutput).toContain(
      ['    spec:', '      workloads:', '        nodePlacement:', '          nodeSelector:', '            virtgate.io/ready: "true"'].join('\n'),
    );
    expect(installOutput).toContain(`kubectl -n ${NS} port-forward svc/virtgate-aggregator 8080:8080`);
    expect(installOutput).not.toContain('does not allow privileged pods');
    expect(installOutput).toContain(`helm test ${RELEASE} -n ${NS}`);
  });

  it('namespaceOverride installs every workload into an existing namespace of the user, which uninstall leaves in place', async () => {
    const OVERRIDE = 'chart-install-override';
    await core.createNamespace({ body: { metadata: { name: OVERRIDE, labels: { 'pod-security.kubernetes.io/enforce': 'privileged', team: 'virt' } } } });
    await helmOk(
      cp.binDir,
      // A second release in the cluster leaves the CRD to the first (crds.install=false).
      ['install', 'override', CHART_DIR, '--namespace', NS, '--set', `namespaceOverride=${OVERRIDE}`, '--set', 'prune.onUninstall=false', '--set', 'crds.install=false'],
      cp.adminKubeconfig,
    );
    const apps = admin.makeApiClient(AppsV1Api);
    expect((await apps.listNamespacedDaemonSet({ namespace: OVERRIDE })).items.map((d) => d.metadata?.name)).toEqual(['override-virtgate-agent']);
    expect((await apps.listNamespacedDeployment({ namespace: OVERRIDE })).items.map((d) => d.metadata?.name)).toEqual(['override-virtgate-aggregator']);
    await core.readNamespacedService({ namespace: OVERRIDE, name: 'override-virtgate-aggregator' });
    await admin.makeApiClient(PolicyV1Api).readNamespacedPodDisruptionBudget({ namespace: OVERRIDE, name: 'override-virtgate-aggregator' });
    const binding = await admin.makeApiClient(RbacAuthorizationV1Api).readClusterRoleBinding({ name: 'override-virtgate-agent' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'override-virtgate-agent', namespace: OVERRIDE }]);
    expect(await statusOfCall(() => apps.readNamespacedDaemonSet({ namespace: NS, name: 'override-virtgate-agent' }))).toBe(404);

    const uninstalled = await helmOk(cp.binDir, ['uninstall', 'override', '--namespace', NS, '--timeout', '2m'], cp.adminKubeconfig);
    expect(uninstalled).toContain('release "override" uninstalled');
    expect(await statusOfCall(() => apps.readNamespacedDaemonSet({ namespace: OVERRIDE, name: 'override-virtgate-agent' }))).toBe(404);
    const namespace = await core.readNamespace({ name: OVERRIDE });
    expect(namespace.status?.phase).toBe('Active');
    expect(namespace.metadata?.labels?.team).toBe('virt');
  });

  it('NOTES warn when the namespace does not allow privileged pods', async () => {
    await core.createNamespace({ body: { metadata: { name: 'chart-install-restricted' } } });
    const output = await helmOk(
      cp.binDir,
      ['install', 'notes-check', CHART_DIR, '--namespace', 'chart-install-restricted', '--dry-run=server', '--set', 'crds.install=false'],
      cp.adminKubeconfig,
    );
    expect(output).toContain('WARNING: namespace chart-install-restricted does not allow privileged pods');
    expect(output).toContain('kubectl label namespace chart-install-restricted pod-security.kubernetes.io/enforce=privileged');
  });

  it('refuses a typo in a values key and installs nothing', async () => {
    const outcome = await helm(
      cp.binDir,
      ['install', 'typo', CHART_DIR, '--namespace', NS, '--set', 'aggregator.minReddy=3'],
      cp.adminKubeconfig,
    );
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain("at '/aggregator': additional properties 'minReddy' not allowed");
    expect((await helm(cp.binDir, ['status', 'typo', '--namespace', NS], cp.adminKubeconfig)).code).not.toBe(0);
  });
});

describe("the agent, with a pod-bound token of the chart's agent ServiceAccount for node A", () => {
  let asAgent: KubeConfig;

  beforeAll(async () => {
    const identity = await podBoundIdentity(admin, cp, NS, 'virtgate-agent', NODE_A);
    asAgent = kubeConfigFrom(identity.kubeconfig);
    // The agent must work *under* the policy, so wait until the API server enforces it.
    await waitForAgentPolicy(asAgent.makeApiClient(CoreV1Api), NODE_B);
    const daemonSet = await admin.makeApiClient(AppsV1Api).readNamespacedDaemonSet({ namespace: NS, name: 'virtgate-agent' });
    // A host without vmx: tier emulation, not ready, so the not-ready policy taints node A.
    const host = await buildHost(await tempDir('virtgate-chart-host-'), 'no-vmx');
    agent = await startAgentProcess(
      [...agentArgsFromDaemonSet(daemonSet.spec?.template.spec?.containers[0]?.args, host.cliArgs), '--kubeconfig', identity.kubeconfig],
      { NODE_NAME: NODE_A },
    );
  });

  it('publishes on node A: labels, ownership annotation, its taint, the condition and the NodeValidation', async () => {
    const published = await waitFor('the agent to publish on node A', async () => {
      const view = await nodeView(core, NODE_A);
      const names = await nodeValidationNames(admin);
      return view.labels['virtgate.io/ready'] && view.conditions.VirtualizationReady && view.taints.some((t) => t.startsWith('virtgate.io/not-ready=')) && names.includes(NODE_A)
        ? view
        : undefined;
    }, 60_000);
    expect(published.labels).toMatchObject({ 'virtgate.io/ready': 'false', 'virtgate.io/tier': 'emulation', 'chart.test/team': 'vm' });
    expect(published.annotations['virtgate.io/owned']).toContain('virtgate.io/not-ready');
    expect(published.conditions).toMatchObject({ VirtualizationReady: 'False', Ready: 'True' });
    expect(published.taints).toContain(FOREIGN_TAINT);
    expect(published.taints).toContain('virtgate.io/not-ready=true:NoSchedule');

    const report = (await custom.getClusterCustomObject({ ...NV, name: NODE_A })) as {
      metadata: { generation: number };
      spec: { nodeName: string };
      status: { ready: boolean; tier: string; taint: { applied: boolean }; observedGeneration: number; conditions: unknown[] };
    };
    expect(report.spec.nodeName).toBe(NODE_A);
    expect(report.status).toMatchObject({ ready: false, tier: 'emulation', taint: { applied: true } });
    // Written through the status subresource: every heartbeat leaves the generation at 1.
    expect(report.metadata.generation).toBe(1);
    expect(report.status.observedGeneration).toBe(1);
    expect(report.status.conditions).toEqual([
      expect.objectContaining({ type: 'Ready', status: 'False', reason: 'NoHardwareVirtualization', observedGeneration: 1 }),
    ]);

    // Not one of its writes was refused: every write it counted has a 2xx code, and it wrote each resource.
    const writes = (await agent?.series('virtgate_agent_api_writes_total')) ?? [];
    expect(writes.filter((write) => !/code="2\d\d"/.test(write.labels))).toEqual([]);
    for (const resource of ['nodes', 'nodes/status', 'nodevalidations']) {
      const count = writes.filter((write) => write.labels.includes(`resource="${resource}"`)).reduce((sum, write) => sum + write.value, 0);
      expect(count, resource).toBeGreaterThan(0);
    }
  });

  it("is refused node B, a label outside the prefix, a foreign taint, another condition, B's NodeValidation, Events about B, Secrets", async () => {
    const nodes = asAgent.makeApiClient(CoreV1Api);
    const reports = asAgent.makeApiClient(CustomObjectsApi);
    await core.createNamespacedSecret({ namespace: NS, body: { metadata: { name: 'chart-install-secret' }, stringData: { key: 'value' } } });
    const byPolicy = (policy: string, text: string) => ({
      status: 403,
      message: expect.stringMatching(new RegExp(`ValidatingAdmissionPolicy '${policy}' .*denied request: .*${text}`)) as unknown as string,
    });

    expect(
      await refusal(() => nodes.patchNode({ name: NODE_B, body: { metadata: { labels: { 'virtgate.io/ready': 'true' } } } }, mergePatch)),
      'label on node B',
    ).toEqual(byPolicy('virtgate-agent-node', `may change only its own Node \\(${NODE_A}\\), not ${NODE_B}`));

    expect(
      await refusal(() => nodes.patchNode({ name: NODE_A, body: { metadata: { labels: { 'chart.test/owner': 'agent' } } } }, mergePatch)),
      'label outside the prefix',
    ).toEqual(byPolicy('virtgate-agent-node', 'may change only labels under virtgate.io/, not chart.test/owner'));

    expect(
      await refusal(() => nodes.patchNode({ name: NODE_A, body: { metadata: { labels: { 'chart.test/team': null } } } }, mergePatch)),
      'removing a foreign label',
    ).toEqual(byPolicy('virtgate-agent-node', 'may change only labels under virtgate.io/, not chart.test/team'));

    const current = await nodes.readNode({ name: NODE_A });
    const withoutForeign = (current.spec?.taints ?? []).filter((taint) => taint.key !== 'chart.test/dedicated');
    expect(
      await refusal(() =>
        nodes.patchNode({ name: NODE_A, body: { metadata: { resourceVersion: current.metadata?.resourceVersion }, spec: { taints: withoutForeign } } }, mergePatch),
      ),
      'removing a foreign taint',
    ).toEqual(byPolicy('virtgate-agent-node', 'may remove only taints under virtgate.io/, not chart.test/dedicated'));

    expect(
      await refusal(() =>
        nodes.patchNodeStatus(
          { name: NODE_A, body: { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'Agent', message: 'forged' }] } } },
          strategicMergePatch,
        ),
      ),
      'another condition on node A',
    ).toEqual(byPolicy('virtgate-agent-node', 'may change only the VirtualizationReady condition'));

    expect(
      await refusal(() =>
        nodes.patchNodeStatus(
          { name: NODE_B, body: { status: { conditions: [{ type: 'VirtualizationReady', status: 'True', reason: 'Forged', message: 'forged' }] } } },
          strategicMergePatch,
        ),
      ),
      'the condition on node B',
    ).toEqual(byPolicy('virtgate-agent-node', `may change only its own Node \\(${NODE_A}\\), not ${NODE_B}`));

    expect(
      await refusal(() => nodes.patchNode({ name: NODE_A, body: { spec: { unschedulable: true } } }, mergePatch)),
      'cordoning node A',
    ).toEqual(byPolicy('virtgate-agent-node', "may change only taints in the Node's spec"));

    expect(
      await refusal(() => reports.createClusterCustomObject({ ...NV, body: nodeValidation(NODE_B) })),
      'creating the NodeValidation of node B',
    ).toEqual(byPolicy('virtgate-agent-nodevalidation', `may write only the NodeValidation of its own Node \\(${NODE_A}\\), not ${NODE_B}`));

    await custom.createClusterCustomObject({ ...NV, body: nodeValidation(NODE_B) });
    expect(
      await refusal(() =>
        reports.patchClusterCustomObjectStatus({ ...NV, name: NODE_B, body: [{ op: 'add', path: '/status', value: { ready: true } }] }, jsonPatch),
      ),
      'writing the status of the NodeValidation of node B',
    ).toEqual(byPolicy('virtgate-agent-nodevalidation', `may write only the NodeValidation of its own Node \\(${NODE_A}\\), not ${NODE_B}`));

    // A report about node A under another name: the status subresource has the same name fence.
    const ALIAS = `${NODE_A}-alias`;
    await custom.createClusterCustomObject({ ...NV, body: nodeValidation(ALIAS, NODE_A) });
    expect(
      await refusal(() => reports.patchClusterCustomObjectStatus({ ...NV, name: ALIAS, body: { status: { ready: true } } }, mergePatch)),
      'writing the status of a NodeValidation about node A under another name',
    ).toEqual(byPolicy('virtgate-agent-nodevalidation', `may write only the NodeValidation of its own Node \\(${NODE_A}\\), not ${ALIAS}`));
    await custom.deleteClusterCustomObject({ ...NV, name: ALIAS });

    // Its own report's metadata and spec stay as created: RBAC grants no patch on the object itself.
    const ownPatch = await refusal(() => reports.patchClusterCustomObject({ ...NV, name: NODE_A, body: { metadata: { labels: { forged: 'x' } } } }, mergePatch));
    expect(ownPatch.status).toBe(403);
    expect(ownPatch.message).toContain('cannot patch resource "nodevalidations"');

    expect(
      await refusal(() =>
        nodes.createNamespacedEvent({
          namespace: 'default',
          body: { metadata: { generateName: 'forged-' }, involvedObject: { kind: 'Node', name: NODE_B }, reason: 'Forged', message: 'forged' },
        }),
      ),
      'an Event about node B',
    ).toEqual(byPolicy('virtgate-agent-event', `may record Events only about its own Node, ${NODE_A}`));

    // RBAC, not the policy, refuses what the role never grants.
    const secret = await refusal(() => nodes.readNamespacedSecret({ namespace: NS, name: 'chart-install-secret' }));
    expect(secret.status).toBe(403);
    expect(secret.message).toContain(`User "system:serviceaccount:${NS}:virtgate-agent" cannot get resource "secrets"`);
    const deletion = await refusal(() => nodes.deleteNode({ name: NODE_B }));
    expect(deletion.status).toBe(403);
    expect(deletion.message).toContain('cannot delete resource "nodes"');
    const listReports = await refusal(() => reports.listClusterCustomObject(NV));
    expect(listReports.message).toContain('cannot list resource "nodevalidations"');

    // Node B carries nothing of virtgate's; node A keeps its foreign label and taint.
    const b = await nodeView(core, NODE_B);
    expect(keysUnder('virtgate.io', b)).toEqual([]);
    expect(b.conditions.VirtualizationReady).toBeUndefined();
    const a = await nodeView(core, NODE_A);
    expect(a.labels['chart.test/team']).toBe('vm');
    expect(a.labels['chart.test/owner']).toBeUndefined();
    expect(a.taints).toContain(FOREIGN_TAINT);
    expect(a.conditions.Ready).toBe('True');
  });

  it('may not even do what the policy allows without a node-bound token', async () => {
    // A TokenRequest bound to nothing carries no node name: every write is refused.
    const token = await core.createNamespacedServiceAccountToken({
      namespace: NS,
      name: 'virtgate-agent',
      body: { spec: { audiences: [], expirationSeconds: 600 } },
    });
    const unbound = kubeConfigFrom(
      await writeKubeconfig(
        path.join(cp.dir, 'chart-install-unbound.kubeconfig'),
        cp.server,
        cp.caFile,
        { token: token.status?.token ?? '' },
        'unbound-agent',
      ),
    ).makeApiClient(CoreV1Api);
    const outcome = await refusal(() => unbound.patchNode({ name: NODE_A, body: { metadata: { labels: { 'virtgate.io/ready': 'true' } } } }, mergePatch));
    expect(outcome.status).toBe(403);
    expect(outcome.message).toContain('its token names no node');
  });
});

describe("the aggregator, with a pod-bound token of the chart's aggregator ServiceAccount", () => {
  let asAggregator: KubeConfig;
  // Its own report to read, independent of what the agent tests above left behind.
  const REPORT = 'chart-install-aggregator-view';

  beforeAll(async () => {
    await custom.createClusterCustomObject({ ...NV, body: nodeValidation(REPORT) });
    asAggregator = kubeConfigFrom((await podBoundIdentity(admin, cp, NS, 'virtgate-aggregator', NODE_A)).kubeconfig);
  });

  it('gets, lists and watches nodes and NodeValidations', async () => {
    const nodes = asAggregator.makeApiClient(CoreV1Api);
    const reports = asAggregator.makeApiClient(CustomObjectsApi);
    expect((await nodes.listNode()).items.map((n) => n.metadata?.name)).toContain(NODE_A);
    expect((await nodes.readNode({ name: NODE_B })).metadata?.name).toBe(NODE_B);
    await reports.getClusterCustomObject({ ...NV, name: REPORT });
    const listed = (await reports.listClusterCustomObject(NV)) as { items: Array<{ metadata: { name: string } }> };
    expect(listed.items.map((item) => item.metadata.name)).toContain(REPORT);
    await admin.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition();

    for (const [apiPath, name] of [
      ['/api/v1/nodes', NODE_A],
      ['/apis/virtgate.io/v1alpha1/nodevalidations', REPORT],
    ] as const) {
      const seen = await new Promise<string>((resolve, reject) => {
        let controller: AbortController | undefined;
        void new Watch(asAggregator)
          .watch(apiPath, { fieldSelector: `metadata.name=${name}` }, (type: string, object: { metadata?: { name?: string } }) => {
            controller?.abort();
            resolve(`${type} ${object.metadata?.name}`);
          }, (error: unknown) => {
            if (error && !(error instanceof Error && error.name === 'AbortError')) reject(error instanceof Error ? error : new Error(String(error)));
          })
          .then((c) => (controller = c), reject);
      });
      expect(seen).toBe(`ADDED ${name}`);
    }

    // The KubeVirt and CDI CRs (whose CRDs this cluster lacks) and the CRDs themselves.
    const review = asAggregator.makeApiClient(AuthorizationV1Api);
    for (const [group, resource] of [
      ['kubevirt.io', 'kubevirts'],
      ['kubevirt.io', 'virtualmachineinstances'],
      ['cdi.kubevirt.io', 'cdis'],
      ['apiextensions.k8s.io', 'customresourcedefinitions'],
    ]) {
      for (const verb of ['get', 'list', 'watch']) {
        const answer = await review.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { group, resource, verb } } } });
        expect(answer.status?.allowed, `${verb} ${resource}.${group}`).toBe(true);
      }
    }
  });

  it('is refused every write', async () => {
    const nodes = asAggregator.makeApiClient(CoreV1Api);
    const reports = asAggregator.makeApiClient(CustomObjectsApi);
    const writes: Array<[string, () => Promise<unknown>]> = [
      ['create a node', () => nodes.createNode({ body: { metadata: { name: 'chart-install-forged' } } })],
      ['label a node', () => nodes.patchNode({ name: NODE_A, body: { metadata: { labels: { 'virtgate.io/ready': 'true' } } } }, mergePatch)],
      ['patch a node status', () =>
        nodes.patchNodeStatus({ name: NODE_A, body: { status: { conditions: [{ type: 'VirtualizationReady', status: 'True' }] } } }, strategicMergePatch)],
      ['delete a node', () => nodes.deleteNode({ name: NODE_B })],
      ['create a NodeValidation', () => reports.createClusterCustomObject({ ...NV, body: nodeValidation('chart-install-forged') })],
      ['patch a NodeValidation', () =>
        reports.patchClusterCustomObject({ ...NV, name: REPORT, body: [{ op: 'add', path: '/status', value: { ready: true } }] }, jsonPatch)],
      ['write a NodeValidation status', () =>
        reports.patchClusterCustomObjectStatus({ ...NV, name: REPORT, body: [{ op: 'add', path: '/status', value: { ready: true } }] }, jsonPatch)],
      ['replace a NodeValidation status', () =>
        reports.replaceClusterCustomObjectStatus({ ...NV, name: REPORT, body: { ...nodeValidation(REPORT), status: { ready: true } } })],
      ['delete a NodeValidation', () => reports.deleteClusterCustomObject({ ...NV, name: REPORT })],
      ['create a ConfigMap', () => nodes.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'forged' } } })],
      ['create a Pod', () =>
        nodes.createNamespacedPod({ namespace: NS, body: { metadata: { name: 'forged' }, spec: { containers: [{ name: 'c', image: 'x' }] } } })],
      ['create an Event', () =>
        nodes.createNamespacedEvent({ namespace: 'default', body: { metadata: { generateName: 'forged-' }, involvedObject: { kind: 'Node', name: NODE_A } } })],
      ['read a Secret', () => nodes.readNamespacedSecret({ namespace: NS, name: 'chart-install-secret' })],
    ];
    for (const [what, call] of writes) {
      const outcome = await refusal(call);
      expect(outcome.status, what).toBe(403);
      expect(outcome.message, what).toContain(`User "system:serviceaccount:${NS}:virtgate-aggregator" cannot`);
    }

    // The whole matrix, as the API server's authorizer answers it.
    const review = asAggregator.makeApiClient(AuthorizationV1Api);
    const resources: Array<[string, string, string?]> = [
      ['', 'nodes'],
      ['', 'nodes', 'status'],
      ['virtgate.io', 'nodevalidations'],
      ['virtgate.io', 'nodevalidations', 'status'],
      ['kubevirt.io', 'kubevirts'],
      ['kubevirt.io', 'virtualmachineinstances'],
      ['cdi.kubevirt.io', 'cdis'],
      ['apiextensions.k8s.io', 'customresourcedefinitions'],
      ['', 'configmaps'],
      ['', 'secrets'],
      ['', 'pods'],
      ['', 'pods', 'exec'],
      ['', 'events'],
      ['apps', 'daemonsets'],
      ['admissionregistration.k8s.io', 'validatingadmissionpolicies'],
      ['rbac.authorization.k8s.io', 'clusterrolebindings'],
    ];
    for (const [group, resource, subresource] of resources) {
      for (const verb of ['create', 'update', 'patch', 'delete', 'deletecollection']) {
        const answer = await review.createSelfSubjectAccessReview({
          body: { spec: { resourceAttributes: { group, resource, verb, ...(subresource ? { subresource } : {}), namespace: NS } } },
        });
        expect(answer.status?.allowed, `${verb} ${resource}${subresource ? `/${subresource}` : ''}.${group}`).toBe(false);
      }
    }
    expect((await nodeView(core, NODE_A)).labels['virtgate.io/ready']).not.toBe('true');
  });
});
