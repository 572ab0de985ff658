import type { V1Node, V1NodeCondition } from '@kubernetes/client-node';
import { exampleFacts, type HostFacts } from '../../../core/checks/registry.ts';
import type { CheckOutcome, Verdict } from '../../../core/checks/verdict.ts';
import { nodeKeys } from '../../../core/kube/names.ts';
import type { NodeValidation } from '../../../core/report/schema.ts';
import type { StatusOperation } from '../../../agent/desired/status-patch.ts';
import type { TaintConfig } from '../../../agent/config.ts';
import type { PoolNode } from '../../../agent/desired/share-guard.ts';
import type { PlanSettings } from '../../../agent/publish/plan.ts';
import type { NodePatch } from '../../../agent/publish/plan/node-object.ts';
import type { ProbeOutcome } from '../../../agent/publish/probe-outcome.ts';

/** Shared inputs for the publish tests (agent/publish): a host, its verdicts and a Node as the API server keeps it. */
export const keys = nodeKeys();

export const facts = {
  ...exampleFacts('/host'),
  cpu: { state: 'ok', value: { arch: 'x86_64', vendor: 'intel', model: 'Xeon', processors: 8, vmx: true, svm: false, hypervisor: false, features: ['avx2'] } },
  kernelRelease: { state: 'ok', value: '5.14.0-503.el9.x86_64' },
} satisfies HostFacts;

function verdict(statuses: Partial<Record<CheckOutcome['id'], CheckOutcome['status']>>, over: Partial<Verdict> = {}): Verdict {
  const checks = Object.entries(statuses).map(([id, status]) => ({ id, status, message: `${id} is ${status}` }) as CheckOutcome);
  return { tier: 'hardware', ready: true, conclusive: true, checks, ...over };
}

export const READY = verdict({ 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'pass', 'dev.vhost-net': 'pass' });
export const NOT_READY = verdict({ 'cpu.virtualization': 'pass', 'dev.kvm': 'pass', 'dev.tun': 'fail', 'dev.vhost-net': 'pass' }, { tier: 'none', ready: false });
export const INCONCLUSIVE = verdict({ 'cpu.virtualization': 'pass', 'dev.kvm': 'error', 'dev.tun': 'pass', 'dev.vhost-net': 'pass' }, { tier: 'emulation', ready: false, conclusive: false });

export const PROBED_AT = new Date('2026-12-05T10:00:00Z');
export const outcome = (v: Verdict): ProbeOutcome => ({ verdict: v, facts, probedAt: PROBED_AT });

export const TAINTING: TaintConfig = { policy: 'not-ready', poolSelector: '', effect: 'NoSchedule', allowNoExecute: false, maxShare: 0.5, bootstrapKey: undefined };
export const settings = (taintConfig: TaintConfig = TAINTING): PlanSettings => ({ keys, taintConfig, agentVersion: '0.0.0-test' });

export function bareNode(name = 'node-a'): V1Node {
  return { metadata: { name, uid: `uid-${name}`, resourceVersion: '1', labels: {}, annotations: {} }, spec: {}, status: { conditions: [] } };
}

/** What the API server does with a merge patch of labels/annotations/taints (null deletes a key). */
export function applyPatch(node: V1Node, patch: NodePatch): V1Node {
  const merge = (current: Record<string, string> = {}, change: Record<string, string | null> = {}) => {
    const next = { ...current };
    for (const [key, value] of Object.entries(change)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    return next;
  };
  return {
    ...node,
    metadata: {
      ...node.metadata,
      resourceVersion: String(Number(node.metadata?.resourceVersion ?? '0') + 1),
      labels: merge(node.metadata?.labels, patch.labels),
      annotations: merge(node.metadata?.annotations, patch.annotations),
    },
    spec: { ...node.spec, ...(patch.taints ? { taints: patch.taints } : {}) },
  };
}

/** What a strategic merge of one condition by type does. */
export function applyCondition(node: V1Node, condition: V1NodeCondition): V1Node {
  const others = (node.status?.conditions ?? []).filter((c) => c.type !== condition.type);
  return { ...node, status: { ...node.status, conditions: [...others, condition] } };
}

/**
 * What the status subresource does with the agent's JSON Patch: `add /status` replaces the whole
 * status; `add /status/<key>` sets one key, and a null value leaves the key absent (the API server
 * prunes a null stored for a field its schema does not mark nullable; every key the agent sends
 * null is such a field: test/integration/report-status-writers.test.ts).
 */
export function applyStatusOperations(report: NodeValidation, operations: readonly StatusOperation[]): NodeValidation {
  let status = report.status as Record<string, unknown> | undefined;
  for (const { path, value } of operations) {
    if (path === '/status') {
      status = structuredClone(value) as Record<string, unknown>;
      continue;
    }
    const key = path.replace(/^\/status\//, '');
    if (!status || key === path) throw new Error(`JSON Patch ${path}: the status does not exist (the API server answers 422)`);
    status = { ...status };
    if (value === null) delete status[key];
    else status[key] = value;
  }
  return JSON.parse(JSON.stringify({ ...report, metadata: { ...report.metadata, generation: report.metadata.generation ?? 1 }, status })) as NodeValidation;
}

export const pool = (...members: Array<[name: string, taintedAt?: string]>): PoolNode[] =>
  members.map(([name, at]) => ({ name, ...(at ? { taintedAt: new Date(at) } : {}) }));
