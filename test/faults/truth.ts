/**
 * What the published state must converge to: the verdict of the same probes on the fixture host
 * as it is now, compared with the Node's labels and condition, the NodeValidation, and the
 * aggregator's view of the node.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { evaluate } from '../../core/checks/evaluate.ts';
import { DEFAULT_POLICY } from '../../core/checks/policy.ts';
import { probeHost } from '../../core/checks/probe-host.ts';
import type { Tier } from '../../core/checks/verdict.ts';
import { API_GROUP, API_VERSION, CONDITION_TYPE, NODE_VALIDATION_PLURAL, nodeKeys } from '../../core/kube/names.ts';
import type { NodeValidation } from '../../core/report/schema.ts';
import type { FaultNode } from './fault-nodes.ts';

export interface Truth {
  ready: boolean;
  tier: Tier;
  /** The `kvm` label the agent must publish. */
  kvm: 'true' | 'false';
}

const keys = nodeKeys();

/** The verdict the agent must publish for this host right now (virt-host-validate left out, as the agents run). */
export async function truthOf(node: FaultNode): Promise<Truth> {
  const verdict = evaluate(await probeHost(node.host.root, node.host.devices), { state: 'disabled' }, DEFAULT_POLICY);
  if (!verdict.conclusive) throw new Error(`the host of ${node.name} is inconclusive: truth needs a conclusive fixture`);
  const kvm = verdict.checks.find((check) => check.id === 'dev.kvm')?.status === 'pass' ? 'true' : 'false';
  return { ready: verdict.ready, tier: verdict.tier, kvm };
}

/** Every way the published state differs from the truth; empty when it matches. */
export async function publishedMismatches(admin: KubeConfig, node: FaultNode, truth: Truth): Promise<string[]> {
  const problems: string[] = [];
  const published = await admin.makeApiClient(CoreV1Api).readNode({ name: node.name });
  const labels = published.metadata?.labels ?? {};
  const expect = (what: string, actual: unknown, wanted: unknown) => {
    if (actual !== wanted) problems.push(`${node.name} ${what}: ${String(actual)} (want ${String(wanted)})`);
  };
  expect('label ready', labels[keys.labels.ready], String(truth.ready));
  expect('label tier', labels[keys.labels.tier], truth.tier);
  expect('label kvm', labels[keys.labels.kvm], truth.kvm);
  const condition = published.status?.conditions?.find((c) => c.type === CONDITION_TYPE);
  expect('condition', condition?.status, truth.ready ? 'True' : 'False');
  let report: NodeValidation | undefined;
  try {
    report = (await admin
      .makeApiClient(CustomObjectsApi)
      .getClusterCustomObject({ group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: node.name })) as NodeValidation;
  } catch {
    problems.push(`${node.name}: no NodeValidation`);
  }
  if (report) {
    expect('report ready', report.status?.ready, truth.ready);
    expect('report tier', report.status?.tier, truth.tier);
  }
  return problems;
}

/** The aggregator's state for a node whose agent published `truth` (a live report, kubelet Ready). */
export function aggregatorState(truth: Truth): 'ready' | 'emulation' | 'not-ready' {
  if (!truth.ready) return 'not-ready';
  return truth.tier === 'hardware' ? 'ready' : 'emulation';
}

/** Every node whose state in the aggregator's `/api/v1/nodes` differs from its truth. */
export async function aggregatorMismatches(aggregatorUrl: string, expected: ReadonlyMap<string, Truth>): Promise<string[]> {
  const response = await fetch(`${aggregatorUrl}/api/v1/nodes`);
  if (response.status !== 200) return [`aggregator /api/v1/nodes answered ${response.status}`];
  const body = (await response.json()) as { nodes: Array<{ name: string; state: string; reason: string }> };
  const problems: string[] = [];
  for (const [name, truth] of expected) {
    const node = body.nodes.find((entry) => entry.name === name);
    const wanted = aggregatorState(truth);
    if (node?.state !== wanted) problems.push(`aggregator: ${name} is ${node ? `${node.state} (${node.reason})` : 'absent'} (want ${wanted})`);
  }
  return problems;
}
