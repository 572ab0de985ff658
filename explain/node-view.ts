import { type NodeModel, parseNode } from '../aggregator/model/node.ts';
import type { AssessedNode } from '../aggregator/readiness/assess-node.ts';
import { isRecord, safely } from '../core/untrusted.ts';
import { parseQuantity } from './quantity.ts';

/**
 * One node as `virtgate explain` judges it: the Node's labels, taints and resources, what the pods
 * on it already request, and virtgate's own assessment of it (readiness and report).
 */
export interface NodeView {
  node: NodeModel;
  unschedulable: boolean;
  /** status.allocatable in base units (cores, bytes, devices). */
  allocatable: Readonly<Record<string, number>>;
  /** What the pods bound to it request, per resource; null when pods could not be listed. */
  requested: Readonly<Record<string, number>> | null;
  /** virtgate's readiness of the node and its report (aggregator/readiness/assess-node.ts). */
  assessed: AssessedNode;
}

/** The scheduling parts of a Node beyond NodeModel; null when the object has no usable name. Never throws. */
export function readNodeResources(raw: unknown): { node: NodeModel; unschedulable: boolean; allocatable: Record<string, number> } | null {
  return safely(() => {
    const node = parseNode(raw);
    if (node === null || !isRecord(raw)) return null;
    const spec = isRecord(raw.spec) ? raw.spec : {};
    const status = isRecord(raw.status) ? raw.status : {};
    return { node, unschedulable: spec.unschedulable === true, allocatable: resourceList(status.allocatable) };
  }, null);
}

/** A pod's node and what it requests as the scheduler counts it (NodeResourcesFit); null for a pod that holds nothing. */
export interface BoundPod {
  nodeName: string;
  requests: Record<string, number>;
  /** The `kubevirt.io/created-by` label: the uid of the VMI whose virt-launcher pod this is. */
  createdBy?: string;
}

export function readPodRequests(raw: unknown): BoundPod | null {
  return safely(() => {
    if (!isRecord(raw) || !isRecord(raw.spec)) return null;
    const phase = isRecord(raw.status) ? raw.status.phase : undefined;
    const { nodeName } = raw.spec;
    if (typeof nodeName !== 'string' || nodeName === '' || phase === 'Succeeded' || phase === 'Failed') return null;
    const requests = podRequests(raw);
    if (requests === null) return null;
    const labels = isRecord(raw.metadata) && isRecord(raw.metadata.labels) ? raw.metadata.labels : {};
    const createdBy = labels['kubevirt.io/created-by'];
    return typeof createdBy === 'string' ? { nodeName, requests, createdBy } : { nodeName, requests };
  }, null);
}

/** What a pod asks of a node, bound or not (its virt-launcher pod, for a VMI); null when it is not a pod. Never throws. */
export function podRequests(raw: unknown): Record<string, number> | null {
  return safely(() => {
    if (!isRecord(raw) || !isRecord(raw.spec)) return null;
    const { spec } = raw;
    const containers = Array.isArray(spec.containers) ? spec.containers.slice(0, 100) : [];
    const initContainers = Array.isArray(spec.initContainers) ? spec.initContainers.slice(0, 100) : [];
    const sum: Record<string, number> = {};
    const add = (into: Record<string, number>, list: Record<string, number>) => {
      for (const [name, value] of Object.entries(list)) into[name] = (into[name] ?? 0) + value;
    };
    for (const container of containers) add(sum, requestsOf(container));
    // Init containers run one at a time before the rest; sidecars (restartPolicy Always) stay and add up.
    const initPeak: Record<string, number> = {};
    const sidecars: Record<string, number> = {};
    for (const container of initContainers) {
      const requests = requestsOf(container);
      if (isRecord(container) && container.restartPolicy === 'Always') {
        add(sidecars, requests);
        continue;
      }
      for (const [name, value] of Object.entries(requests)) initPeak[name] = Math.max(initPeak[name] ?? 0, value + (sidecars[name] ?? 0));
    }
    add(sum, sidecars);
    for (const [name, value] of Object.entries(initPeak)) sum[name] = Math.max(sum[name] ?? 0, value);
    add(sum, resourceList(spec.overhead));
    return sum;
  }, null);
}

function requestsOf(container: unknown): Record<string, number> {
  if (!isRecord(container) || !isRecord(container.resources)) return {};
  // A resource with a limit and no request requests its limit.
  return { ...resourceList(container.resources.limits), ...resourceList(container.resources.requests) };
}

function resourceList(value: unknown): Record<string, number> {
  if (!isRecord(value)) return {};
  const list: Record<string, number> = {};
  for (const [name, amount] of Object.entries(value).slice(0, 200)) {
    const parsed = parseQuantity(amount);
    if (parsed !== null && name.length <= 317) list[name] = parsed;
  }
  return list;
}

/**
 * Per node name, what its pods request in total. The pods of the VMI being explained are left out
 * (`vmiUid`): a running VM does not stand in its own way.
 */
export function requestsByNode(pods: readonly (BoundPod | null)[], vmiUid: string | null = null): Map<string, Record<string, number>> {
  const byNode = new Map<string, Record<string, number>>();
  for (const pod of pods) {
    if (pod === null || (vmiUid !== null && pod.createdBy === vmiUid)) continue;
    const total = byNode.get(pod.nodeName) ?? {};
    for (const [name, value] of Object.entries(pod.requests)) total[name] = (total[name] ?? 0) + value;
    byNode.set(pod.nodeName, total);
  }
  return byNode;
}
