import { z } from 'zod';
import { boundedString, isRecord, listOf, safely, stringMap } from '../../core/untrusted.ts';

/**
 * A Node as the gate sees it: plain data, independent of @kubernetes/client-node classes.
 * Built from a raw object (a V1Node or its JSON) by `parseNode`.
 */
export interface Taint {
  key: string;
  value: string;
  /** NoSchedule | PreferNoSchedule | NoExecute (kept as written). */
  effect: string;
}

export interface NodeCondition {
  type: string;
  /** "True" | "False" | "Unknown" as written. */
  status: string;
  reason: string | null;
}

export interface NodeModel {
  name: string;
  /** metadata.uid; a NodeValidation's ownerReference must carry it when it is known. */
  uid: string | null;
  labels: Record<string, string>;
  taints: Taint[];
  /** status.nodeInfo.containerRuntimeVersion, e.g. `containerd://2.1.4`. */
  containerRuntimeVersion: string | null;
  kernelVersion: string | null;
  osImage: string | null;
  conditions: NodeCondition[];
  /** ISO 8601; client-node gives a Date, JSON gives a string: both are accepted. */
  creationTimestamp: string | null;
  /** virt-handler's last heartbeat (the `kubevirt.io/heartbeat` annotation) as written; null when absent. */
  kubevirtHeartbeat: string | null;
}

/** Kubernetes object names are DNS subdomains: at most 253 characters. */
const nameSchema = z.string().min(1).max(253);

const taintSchema = z.object({
  key: z.string().max(317),
  value: z.string().max(63).nullish(),
  effect: z.string().max(32),
});

const conditionSchema = z.object({
  type: z.string().max(316),
  status: z.string().max(16),
  reason: z.string().max(1024).nullish(),
});

/** Narrows a raw Node; null when it has no usable name (it cannot be reported on). Never throws. */
export function parseNode(raw: unknown): NodeModel | null {
  return safely(() => narrowNode(raw), null);
}

function narrowNode(raw: unknown): NodeModel | null {
  if (!isRecord(raw) || !isRecord(raw.metadata)) return null;
  const name = nameSchema.safeParse(raw.metadata.name);
  if (!name.success) return null;
  const spec = isRecord(raw.spec) ? raw.spec : {};
  const status = isRecord(raw.status) ? raw.status : {};
  const nodeInfo = isRecord(status.nodeInfo) ? status.nodeInfo : {};
  return {
    name: name.data,
    uid: boundedString(raw.metadata.uid, 128),
    labels: stringMap(raw.metadata.labels),
    taints: listOf(spec.taints, taintSchema).map((taint) => ({ key: taint.key, value: taint.value ?? '', effect: taint.effect })),
    containerRuntimeVersion: boundedString(nodeInfo.containerRuntimeVersion, 1024),
    kernelVersion: boundedString(nodeInfo.kernelVersion, 1024),
    osImage: boundedString(nodeInfo.osImage, 1024),
    conditions: listOf(status.conditions, conditionSchema).map((condition) => ({
      type: condition.type,
      status: condition.status,
      reason: condition.reason ?? null,
    })),
    creationTimestamp: timestamp(raw.metadata.creationTimestamp),
    kubevirtHeartbeat: isRecord(raw.metadata.annotations) ? boundedString(raw.metadata.annotations['kubevirt.io/heartbeat'], 64) : null,
  };
}

function timestamp(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return boundedString(value, 64);
}
