/**
 * Stands in for virt-handler on fake nodes (no kubelet runs them), for
 * test/integration/e2e-placement.test.ts: where it runs, and the label it leaves behind.
 *
 * - Where: virt-operator copies the CR's `spec.workloads.nodePlacement` (nodeSelector, affinity,
 *   tolerations) onto virt-handler's DaemonSet. Here one pod per node carries that placement,
 *   pinned to its node by hostname, and the real kube-scheduler decides whether it fits: bound
 *   means a DaemonSet pod would run there (its nodeSelector, affinity and untolerated NoSchedule
 *   taints all kept it off otherwise). The pods request nothing, so they never crowd VMs out.
 * - The label: a running virt-handler labels its node `kubevirt.io/schedulable=true` and
 *   heartbeats (`kubevirt.io/heartbeat`). How it leaves decides the label (KubeVirt v1.9.0):
 *   - `graceful`: the DaemonSet deletes it, and its SIGTERM handler sets the label to false
 *     (cmd/virt-handler/virt-handler.go, markNodeAsUnschedulable; seen on the real node,
 *     docs/kubevirt.md);
 *   - `abrupt`: it dies without that handler running (killed, its node's kubelet or runtime gone)
 *     or the handler's patch loses a race with a heartbeat (seen on the real node on 2026-12-03):
 *     the label stays `true` until virt-controller finds the heartbeat 5 minutes stale
 *     (pkg/virt-controller/watch/node/node.go). Only a taint keeps new VMs off meanwhile.
 */
import type { CoreV1Api, V1Affinity, V1Pod } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { NodePlacement } from './node-placement.ts';
import { SCHEDULABLE_LABEL } from './virt-launcher.ts';
import { waitFor } from '../support/wait.ts';

const HEARTBEAT_ANNOTATION = 'kubevirt.io/heartbeat';
const ROLE_LABEL = 'e2e.virtgate.test/virt-handler';
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export class VirtHandlerStandIn {
  /** Nodes a virt-handler runs on after the last sync. */
  private running = new Set<string>();
  private readonly core: CoreV1Api;
  private readonly namespace: string;

  constructor(core: CoreV1Api, namespace: string) {
    this.core = core;
    this.namespace = namespace;
  }

  /**
   * Applies `placement` as virt-operator would: returns the nodes virt-handler now runs on,
   * labelled schedulable. Where it stopped running, it left as `departure` says.
   */
  async sync(placement: NodePlacement, nodeNames: readonly string[], departure: 'graceful' | 'abrupt' = 'graceful'): Promise<Set<string>> {
    await this.removePods();
    for (const node of nodeNames) await this.core.createNamespacedPod({ namespace: this.namespace, body: handlerPod(placement, node) });
    const decided = await waitFor('the scheduler to decide every virt-handler pod', async () => {
      const pods = (await this.core.listNamespacedPod({ namespace: this.namespace, labelSelector: ROLE_LABEL })).items;
      const bound = pods.filter((pod) => pod.spec?.nodeName);
      const refused = pods.filter((pod) => pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable'));
      return bound.length + refused.length === nodeNames.length ? new Set(bound.map((pod) => pod.spec!.nodeName!)) : undefined;
    }, 60_000, 250);
    const heartbeat = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    for (const node of decided) {
      await this.core.patchNode({ name: node, body: { metadata: { labels: { [SCHEDULABLE_LABEL]: 'true' }, annotations: { [HEARTBEAT_ANNOTATION]: heartbeat } } } }, mergePatch);
    }
    if (departure === 'graceful') {
      for (const node of this.running) {
        if (!decided.has(node)) await this.core.patchNode({ name: node, body: { metadata: { labels: { [SCHEDULABLE_LABEL]: 'false' } } } }, mergePatch);
      }
    }
    this.running = decided;
    return decided;
  }

  /** The pods stand only for the DaemonSet's decision: none stay between syncs (no kubelet would run them). */
  async removePods(): Promise<void> {
    await this.core.deleteCollectionNamespacedPod({ namespace: this.namespace, labelSelector: ROLE_LABEL, gracePeriodSeconds: 0 });
    await waitFor('the virt-handler stand-in pods to be gone', async () =>
      (await this.core.listNamespacedPod({ namespace: this.namespace, labelSelector: ROLE_LABEL })).items.length === 0 ? true : undefined);
  }
}

function handlerPod(placement: NodePlacement, node: string): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `virt-handler-${node}`, labels: { [ROLE_LABEL]: 'true', 'kubevirt.io': 'virt-handler' } },
    spec: {
      nodeSelector: { ...placement.nodeSelector, 'kubernetes.io/hostname': node },
      ...(placement.affinity ? { affinity: placement.affinity as V1Affinity } : {}),
      tolerations: placement.tolerations,
      automountServiceAccountToken: false,
      containers: [{ name: 'virt-handler', image: 'registry.invalid/kubevirt/virt-handler:test' }],
    },
  };
}
