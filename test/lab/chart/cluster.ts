/** Small helpers the chart's integration tests share: refusals, node snapshots, a stand-in job controller. */
import { BatchV1Api, type CoreV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { apiFailure } from '../../../core/kube/api-error.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../../../core/kube/names.ts';
import { waitFor } from '../support/wait.ts';

export const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
export const strategicMergePatch = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
export const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

export function kubeConfigFrom(file: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
}

/** The HTTP status and message a call failed with; status 0 when it succeeded. */
export async function refusal(call: () => Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call();
    return { status: 0, message: '' };
  } catch (error) {
    const failure = apiFailure(error);
    if (!failure.status) throw error;
    return { status: failure.status, message: failure.message };
  }
}

export interface NodeView {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** `key=value:Effect` */
  taints: string[];
  /** type → status */
  conditions: Record<string, string>;
}

export async function nodeView(core: CoreV1Api, name: string): Promise<NodeView> {
  const node = await core.readNode({ name });
  return {
    labels: node.metadata?.labels ?? {},
    annotations: node.metadata?.annotations ?? {},
    taints: (node.spec?.taints ?? []).map((taint) => `${taint.key}=${taint.value ?? ''}:${taint.effect}`),
    conditions: Object.fromEntries((node.status?.conditions ?? []).map((condition) => [condition.type, condition.status])),
  };
}

export function keysUnder(prefix: string, view: NodeView): string[] {
  return [
    ...Object.keys(view.labels),
    ...Object.keys(view.annotations),
    ...view.taints.map((taint) => taint.split('=')[0] ?? ''),
  ].filter((key) => key.startsWith(`${prefix}/`));
}

export async function nodeValidationNames(kc: KubeConfig): Promise<string[]> {
  const list = (await kc
    .makeApiClient(CustomObjectsApi)
    .listClusterCustomObject({ group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL })) as { items: Array<{ metadata: { name: string } }> };
  return list.items.map((item) => item.metadata.name);
}

/**
 * New admission policies load asynchronously: waits (with dry runs, which write nothing) until the
 * agent identity is refused a label on a node that is not its own.
 */
export async function waitForAgentPolicy(asAgent: CoreV1Api, otherNode: string): Promise<void> {
  await waitFor(
    'the agent admission policy to be enforced',
    async () => {
      const { status } = await refusal(() =>
        asAgent.patchNode({ name: otherNode, dryRun: 'All', body: { metadata: { labels: { 'policy.probe/x': 'y' } } } }, mergePatch),
      );
      return status === 403 ? true : undefined;
    },
    60_000,
  );
}

/**
 * No kubelet and no job controller run here: a Job's pod never runs. After the test has done the
 * pod's work itself, this records the Job as a job controller would, so `helm` sees it complete.
 */
export async function markJobComplete(kc: KubeConfig, namespace: string, name: string): Promise<void> {
  const now = new Date();
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: now, lastTransitionTime: now });
  await kc.makeApiClient(BatchV1Api).patchNamespacedJobStatus(
    {
      namespace,
      name,
      body: {
        status: {
          startTime: now,
          completionTime: now,
          succeeded: 1,
          conditions: [condition('SuccessCriteriaMet'), condition('Complete')],
        },
      },
    },
    mergePatch,
  );
}
