/**
 * What the published state must converge to: the verdict written down by hand for the fixture
 * host (test/lab/hosts/expected-verdicts.ts), in the state the host is in now (intact, or with
 * /dev/kvm removed). It is not computed by virtgate, so a verdict that propagates perfectly but
 * is wrong is still caught. Compared with the Node's labels and condition, the NodeValidation,
 * and the aggregator's view of the node.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Node } from '@kubernetes/client-node';
import type { CheckStatus } from '../../core/checks/outcome.ts';
import type { Tier } from '../../core/checks/verdict.ts';
import { API_GROUP, API_VERSION, CONDITION_TYPE, NODE_VALIDATION_PLURAL, nodeKeys } from '../../core/kube/names.ts';
import type { NodeValidation } from '../../core/report/schema.ts';
import { expectedVerdict } from '../lab/hosts/expected-verdicts.ts';
import type { FaultNode } from './fault-nodes.ts';

export interface Truth {
  ready: boolean;
  tier: Tier;
  /** The `kvm` label the agent must publish. */
  kvm: 'true' | 'false';
  /** The statuses the report's checks must have (only those the hand-written verdict names). */
  checks: Partial<Record<string, CheckStatus>>;
}

const keys = nodeKeys();

/** The hand-written verdict for this host as it is now: intact, or with its /dev/kvm removed. */
export async function truthOf(node: FaultNode): Promise<Truth> {
  const kvmThere = await lstat(path.join(node.host.root, 'dev/kvm')).then(
    () => true,
    () => false,
  );
  return truthFor(node, kvmThere ? 'intact' : 'withoutKvm');
}

/** The hand-written verdict for this host in a given state, whatever state it is in now. */
export function truthFor(node: FaultNode, state: 'intact' | 'withoutKvm'): Truth {
  const expected = expectedVerdict(node.host.profile, state);
  return { ready: expected.ready, tier: expected.tier, kvm: expected.checks['dev.kvm'] === 'pass' ? 'true' : 'false', checks: expected.checks };
}

/**
 * The published fields of a node that mean neither `before` nor `after`: while a change is being
 * published each object may still say the old verdict or already the new one, never anything else
 * (a missing report, a label of a third value).
 */
export async function meaningChanged(admin: KubeConfig, node: FaultNode, before: Truth, after: Truth): Promise<string[]> {
  const field = (problem: string) => problem.replace(/:.*$/, '');
  // One read, judged against both truths: two reads could straddle a publish and flag a field
  // that said the old verdict in one and the new in the other.
  const published = await readPublished(admin, node);
  const offBefore = new Set(mismatchesOf(node, published, before).map(field));
  return mismatchesOf(node, published, after).filter((problem) => offBefore.has(field(problem)));
}

/** Every way the published state differs from the truth; empty when it matches. */
export async function publishedMismatches(admin: KubeConfig, node: FaultNode, truth: Truth): Promise<string[]> {
  return mismatchesOf(node, await readPublished(admin, node), truth);
}

interface Published {
  node: V1Node;
  /** Undefined when the NodeValidation could not be read. */
  report: NodeValidation | undefined;
}

async function readPublished(admin: KubeConfig, node: FaultNode): Promise<Published> {
  const published = await admin.makeApiClient(CoreV1Api).readNode({ name: node.name });
  let report: NodeValidation | undefined;
  try {
    report = (await admin
      .makeApiClient(CustomObjectsApi)
      .getClusterCustomObject({ group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: node.name })) as NodeValidation;
  } catch {
    report = undefined;
  }
  return { node: published, report };
}

function mismatchesOf(node: FaultNode, { node: published, report }: Published, truth: Truth): string[] {
  const problems: string[] = [];
  const labels = published.metadata?.labels ?? {};
  const expect = (what: string, actual: unknown, wanted: unknown) => {
    if (actual !== wanted) problems.push(`${node.name} ${what}: ${String(actual)} (want ${String(wanted)})`);
  };
  expect('label ready', labels[keys.labels.ready], String(truth.ready));
  expect('label tier', labels[keys.labels.tier], truth.tier);
  expect('label kvm', labels[keys.familyLabel('kvm')], truth.kvm);
  const condition = published.status?.conditions?.find((c) => c.type === CONDITION_TYPE);
  expect('condition', condition?.status, truth.ready ? 'True' : 'False');
  if (!report) problems.push(`${node.name}: no NodeValidation`);
  if (report) {
    expect('report ready', report.status?.ready, truth.ready);
    expect('report tier', report.status?.tier, truth.tier);
    // The report's Ready condition mirrors the verdict, as the Node's condition does.
    expect('report condition Ready', report.status?.conditions?.find((c) => c.type === 'Ready')?.status, truth.ready ? 'True' : 'False');
    for (const [id, status] of Object.entries(truth.checks)) {
      expect(`report check ${id}`, report.status?.checks?.find((check) => check.id === id)?.status, status);
    }
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
