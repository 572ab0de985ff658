/**
 * Objects lost: what had to survive a fault — each fault node, its NodeValidation, every foreign
 * label, annotation and taint on it, and the absence of what a foreign writer removed — counted
 * against the API server after the fault.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Taint } from '@kubernetes/client-node';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../../core/kube/names.ts';
import { statusOf } from '../lab/support/wait.ts';

export interface Expected {
  name: string;
  labels: Record<string, string>;
  taints: V1Taint[];
  annotations?: Record<string, string>;
  /** Foreign keys whose last write removed them: a write that brings one back undid that removal. */
  absentLabels?: string[];
  absentAnnotations?: string[];
  /** The node's NodeValidation must exist (false before its agent ever published). */
  report: boolean;
}

export interface Census {
  checked: number;
  lost: string[];
}

const sameTaint = (a: V1Taint, b: V1Taint) => a.key === b.key && (a.value ?? '') === (b.value ?? '') && a.effect === b.effect;

export async function census(admin: KubeConfig, expected: readonly Expected[]): Promise<Census> {
  const core = admin.makeApiClient(CoreV1Api);
  const custom = admin.makeApiClient(CustomObjectsApi);
  const lost: string[] = [];
  let checked = 0;
  for (const want of expected) {
    checked += 1;
    let node;
    try {
      node = await core.readNode({ name: want.name });
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      lost.push(`Node ${want.name}`);
    }
    const labels = node?.metadata?.labels ?? {};
    for (const [key, value] of Object.entries(want.labels)) {
      checked += 1;
      if (labels[key] !== value) lost.push(`label ${key}=${value} on ${want.name}`);
    }
    const annotations = node?.metadata?.annotations ?? {};
    for (const [key, value] of Object.entries(want.annotations ?? {})) {
      checked += 1;
      if (annotations[key] !== value) lost.push(`annotation ${key}=${value} on ${want.name}`);
    }
    for (const key of want.absentLabels ?? []) {
      checked += 1;
      if (key in labels) lost.push(`removed label ${key} is back on ${want.name}`);
    }
    for (const key of want.absentAnnotations ?? []) {
      checked += 1;
      if (key in annotations) lost.push(`removed annotation ${key} is back on ${want.name}`);
    }
    const taints = node?.spec?.taints ?? [];
    for (const taint of want.taints) {
      checked += 1;
      if (!taints.some((present) => sameTaint(present, taint))) lost.push(`taint ${taint.key}=${taint.value ?? ''}:${taint.effect} on ${want.name}`);
    }
    if (want.report) {
      checked += 1;
      try {
        await custom.getClusterCustomObject({ group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: want.name });
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
        lost.push(`NodeValidation ${want.name}`);
      }
    }
  }
  return { checked, lost };
}
