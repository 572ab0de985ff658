import path from 'node:path';
import {
  AuthenticationV1Api,
  CoreV1Api,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Node,
  type V1Taint,
} from '@kubernetes/client-node';
import { writeKubeconfig } from './kubeconfig.ts';
import type { ControlPlaneInfo } from './control-plane.ts';

export interface FakeNodeOptions {
  labels?: Record<string, string>;
  taints?: V1Taint[];
  kernelVersion?: string;
  osImage?: string;
  /** `containerd://2.0.5` by default; use `docker://...` for the unsupported-runtime case. */
  containerRuntimeVersion?: string;
  cpu?: string;
  memory?: string;
  /** Extra allocatable resources, e.g. `{ 'devices.kubevirt.io/kvm': '1k' }`. */
  extraResources?: Record<string, string>;
}

/**
 * A Node object as a kubelet would register it, Ready and schedulable. No kubelet runs:
 * pods bound to it stay Pending, which is all the scheduler and placement tests need.
 */
export async function createNode(kc: KubeConfig, name: string, options: FakeNodeOptions = {}): Promise<V1Node> {
  const resources = { cpu: options.cpu ?? '8', memory: options.memory ?? '32Gi', pods: '110', ...options.extraResources };
  const now = new Date();
  const node: V1Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...options.labels } },
    spec: { taints: options.taints ?? [] },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'fake node', lastHeartbeatTime: now, lastTransitionTime: now },
      ],
      nodeInfo: {
        architecture: 'amd64',
        bootID: '',
        containerRuntimeVersion: options.containerRuntimeVersion ?? 'containerd://2.0.5',
        kernelVersion: options.kernelVersion ?? '5.14.0-503.el9.x86_64',
        kubeProxyVersion: '',
        kubeletVersion: 'v1.36.3',
        machineID: '',
        operatingSystem: 'linux',
        osImage: options.osImage ?? 'Rocky Linux 9.5 (Blue Onyx)',
        systemUUID: '',
      },
    },
  };
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNode({ body: node });
  // TaintNodesByCondition taints every new node not-ready until the node lifecycle controller
  // sees the kubelet's Ready condition; with no kubelet, set the intended taints ourselves.
  return core.patchNode(
    { name, body: { spec: { taints: options.taints ?? [] } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

async function ignoreConflict(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
}

/** A namespace with its `default` ServiceAccount (no serviceaccount controller runs here). */
export async function ensureNamespace(kc: KubeConfig, namespace: string): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  await ignoreConflict(() => core.createNamespace({ body: { metadata: { name: namespace } } }));
  await ignoreConflict(() => core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'default' } } }));
}

export async function createServiceAccount(kc: KubeConfig, namespace: string, name: string): Promise<void> {
  await ensureNamespace(kc, namespace);
  const core = kc.makeApiClient(CoreV1Api);
  try {
    await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } });
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
}

export interface PodIdentity {
  kubeconfig: string;
  token: string;
  podName: string;
  username: string;
}

/**
 * The identity a DaemonSet pod on `nodeName` really gets: a Pod bound to the node, then a
 * TokenRequest bound to that Pod. Since 1.32 the token carries the node's name
 * (`authentication.kubernetes.io/node-name`), which the admission policy checks.
 */
export async function podBoundIdentity(
  kc: KubeConfig,
  info: Pick<ControlPlaneInfo, 'server' | 'caFile' | 'dir'>,
  namespace: string,
  serviceAccount: string,
  nodeName: string,
): Promise<PodIdentity> {
  await createServiceAccount(kc, namespace, serviceAccount);
  const core = kc.makeApiClient(CoreV1Api);
  const podName = `${serviceAccount}-${nodeName}`.slice(0, 50) + `-${Math.random().toString(36).slice(2, 7)}`;
  const pod = await core.createNamespacedPod({
    namespace,
    body: {
      metadata: { name: podName },
      spec: {
        nodeName,
        serviceAccountName: serviceAccount,
        automountServiceAccountToken: false,
        containers: [{ name: 'agent', image: 'registry.invalid/virtgate-agent:test' }],
      },
    },
  });
  const review = await core.createNamespacedServiceAccountToken({
    name: serviceAccount,
    namespace,
    body: {
      spec: {
        audiences: [],
        expirationSeconds: 3600,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: podName, uid: pod.metadata?.uid },
      },
    },
  });
  const token = review.status?.token;
  if (!token) throw new Error(`TokenRequest for ${namespace}/${serviceAccount} returned no token`);
  const kubeconfig = await writeKubeconfig(
    path.join(info.dir, `${namespace}-${serviceAccount}-${nodeName}-${podName}.kubeconfig`),
    info.server,
    info.caFile,
    { token },
    `${serviceAccount}@${nodeName}`,
  );
  return { kubeconfig, token, podName, username: `system:serviceaccount:${namespace}:${serviceAccount}` };
}

/** Reads back who the API server thinks a kubeconfig is (SelfSubjectReview). */
export async function whoAmI(kc: KubeConfig): Promise<{ username: string; extra: Record<string, string[]> }> {
  const review = await kc.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({ body: {} });
  return { username: review.status?.userInfo?.username ?? '', extra: review.status?.userInfo?.extra ?? {} };
}
