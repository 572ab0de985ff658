import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  AdmissionregistrationV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  RbacAuthorizationV1Api,
  setHeaderOptions,
  VersionApi,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode, ensureNamespace, podBoundIdentity, whoAmI } from '../lab/controlplane/identities.ts';
import { statusOfCall, waitFor } from '../lab/support/wait.ts';

const run = promisify(execFile);
const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

function configFor(kubeconfig: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  return kc;
}

describe('the real control plane', () => {
  it('(a) creates a Node and patches a label with @kubernetes/client-node', async () => {
    await createNode(admin, 'cp-proof-a');
    await core.patchNode({ name: 'cp-proof-a', body: { metadata: { labels: { 'example.com/proof': 'a' } } } }, mergePatch);
    const node = await core.readNode({ name: 'cp-proof-a' });
    expect(node.metadata?.labels?.['example.com/proof']).toBe('a');
  });

  it('reports v1.36.3 from --version and /version', async () => {
    const { stdout } = await run(path.join(cp.binDir, 'kube-apiserver'), ['--version']);
    expect(stdout.trim()).toBe('Kubernetes v1.36.3');
    const served = await admin.makeApiClient(VersionApi).getCode();
    expect(served.gitVersion).toBe('v1.36.3');
    expect(`${served.major}.${served.minor}`).toBe('1.36');
  });

  it('(b) a pod-bound token carries authentication.kubernetes.io/node-name', async () => {
    await createNode(admin, 'cp-proof-b');
    const identity = await podBoundIdentity(admin, cp, 'cp-proof', 'agent', 'cp-proof-b');
    const me = await whoAmI(configFor(identity.kubeconfig));
    expect(me.username).toBe('system:serviceaccount:cp-proof:agent');
    expect(me.extra['authentication.kubernetes.io/node-name']).toEqual(['cp-proof-b']);
  });

  it('(c) a ValidatingAdmissionPolicy on that claim denies a write to another Node', async () => {
    await createNode(admin, 'cp-proof-c1');
    await createNode(admin, 'cp-proof-c2');
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createClusterRole({
      body: { metadata: { name: 'cp-proof-node-patcher' }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] }] },
    });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: 'cp-proof-node-patcher' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cp-proof-node-patcher' },
        subjects: [{ kind: 'ServiceAccount', name: 'patcher', namespace: 'cp-proof' }],
      },
    });
    const admission = admin.makeApiClient(AdmissionregistrationV1Api);
    await admission.createValidatingAdmissionPolicy({
      body: {
        metadata: { name: 'cp-proof-own-node-only' },
        spec: {
          failurePolicy: 'Fail',
          matchConstraints: {
            resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['nodes'] }],
          },
          matchConditions: [{ name: 'patcher', expression: "request.userInfo.username == 'system:serviceaccount:cp-proof:patcher'" }],
          validations: [
            {
              expression:
                "object.metadata.name == request.userInfo.extra[?'authentication.kubernetes.io/node-name'][0].orValue('')",
              message: 'may only change its own node',
              reason: 'Forbidden',
            },
          ],
        },
      },
    });
    await admission.createValidatingAdmissionPolicyBinding({
      body: { metadata: { name: 'cp-proof-own-node-only' }, spec: { policyName: 'cp-proof-own-node-only', validationActions: ['Deny'] } },
    });
    const identity = await podBoundIdentity(admin, cp, 'cp-proof', 'patcher', 'cp-proof-c1');
    const asAgent = configFor(identity.kubeconfig).makeApiClient(CoreV1Api);
    const patch = (name: string, dryRun?: 'All') => () =>
      asAgent.patchNode({ name, dryRun, body: { metadata: { labels: { 'example.com/touched': 'yes' } } } }, mergePatch);

    // The API server loads new policies asynchronously; wait (with dry runs, which write nothing) until it enforces this one.
    await waitFor('the policy to deny a patch of another node', async () => {
      const status = await statusOfCall(patch('cp-proof-c2', 'All'));
      return status === 403 || status === 422 ? status : undefined;
    });
    expect(await statusOfCall(patch('cp-proof-c2'))).toBe(403);
    expect(await statusOfCall(patch('cp-proof-c1'))).toBe(0);
    const other = await core.readNode({ name: 'cp-proof-c2' });
    expect(other.metadata?.labels?.['example.com/touched']).toBeUndefined();
  });

  it('(d) kube-scheduler binds a pod to the matching node and leaves a tainted one alone', async () => {
    await cp.control('scheduler/start');
    await createNode(admin, 'cp-proof-d-open', { labels: { 'example.com/pool': 'open' } });
    await createNode(admin, 'cp-proof-d-tainted', {
      labels: { 'example.com/pool': 'tainted' },
      taints: [{ key: 'example.com/keep-out', value: 'true', effect: 'NoSchedule' }],
    });
    await ensureNamespace(admin, 'cp-proof');
    const pod = (name: string, pool: string) =>
      core.createNamespacedPod({
        namespace: 'cp-proof',
        body: {
          metadata: { name },
          spec: { nodeSelector: { 'example.com/pool': pool }, containers: [{ name: 'c', image: 'registry.invalid/pause' }] },
        },
      });
    await pod('cp-proof-d-fits', 'open');
    await pod('cp-proof-d-blocked', 'tainted');
    const bound = await waitFor('the scheduler to bind cp-proof-d-fits', async () => {
      const p = await core.readNamespacedPod({ namespace: 'cp-proof', name: 'cp-proof-d-fits' });
      return p.spec?.nodeName || undefined;
    });
    expect(bound).toBe('cp-proof-d-open');
    const reason = await waitFor('the scheduler to report cp-proof-d-blocked unschedulable', async () => {
      const p = await core.readNamespacedPod({ namespace: 'cp-proof', name: 'cp-proof-d-blocked' });
      return p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False')?.reason;
    });
    expect(reason).toBe('Unschedulable');
    const blocked = await core.readNamespacedPod({ namespace: 'cp-proof', name: 'cp-proof-d-blocked' });
    expect(blocked.spec?.nodeName).toBeUndefined();
  });

  it('(e) deleting an owner garbage-collects its dependent', async () => {
    await cp.control('controller-manager/start');
    await ensureNamespace(admin, 'cp-proof');
    const owner = await core.createNamespacedConfigMap({ namespace: 'cp-proof', body: { metadata: { name: 'cp-proof-owner' } } });
    await core.createNamespacedConfigMap({
      namespace: 'cp-proof',
      body: {
        metadata: {
          name: 'cp-proof-dependent',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cp-proof-owner', uid: owner.metadata?.uid ?? '' }],
        },
      },
    });
    await core.deleteNamespacedConfigMap({ namespace: 'cp-proof', name: 'cp-proof-owner' });
    const gone = await waitFor(
      'the garbage collector to delete cp-proof-dependent',
      async () => ((await statusOfCall(() => core.readNamespacedConfigMap({ namespace: 'cp-proof', name: 'cp-proof-dependent' }))) === 404 ? true : undefined),
      60_000,
    );
    expect(gone).toBe(true);
  });

  it('(f) helm installs and uninstalls a tiny chart', async () => {
    const chart = await mkdtemp(path.join(os.tmpdir(), 'virtgate-tiny-chart-'));
    await mkdir(path.join(chart, 'templates'));
    await writeFile(path.join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: tiny\nversion: 0.1.0\n');
    await writeFile(
      path.join(chart, 'templates', 'configmap.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tiny-{{ .Release.Name }}\ndata:\n  hello: {{ .Values.hello | default "world" | quote }}\n',
    );
    const helm = (...args: string[]) =>
      run(path.join(cp.binDir, 'helm'), [...args, '--kubeconfig', cp.adminKubeconfig], { env: { ...process.env, HELM_CACHE_HOME: chart, HELM_CONFIG_HOME: chart, HELM_DATA_HOME: chart } });
    await helm('install', 'proof', chart, '--namespace', 'cp-proof-helm', '--create-namespace', '--set', 'hello=there');
    const cm = await core.readNamespacedConfigMap({ namespace: 'cp-proof-helm', name: 'tiny-proof' });
    expect(cm.data?.hello).toBe('there');
    await helm('uninstall', 'proof', '--namespace', 'cp-proof-helm', '--wait');
    expect(await statusOfCall(() => core.readNamespacedConfigMap({ namespace: 'cp-proof-helm', name: 'tiny-proof' }))).toBe(404);
  });
});
