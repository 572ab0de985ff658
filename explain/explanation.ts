import { DOCUMENT_KINDS, typeMeta } from '../core/documents.ts';
import type { ExplainResult, Placement } from './document.ts';
import { type JudgeContext, judgeNode, type NodeJudgement } from './judge.ts';
import type { KubeVirtPlacementConfig } from './kubevirt-config.ts';
import type { NodeView } from './node-view.ts';
import { launcherRequirements, type Requirement } from './requirements.ts';
import type { VmiInput } from './vmi-input.ts';

/**
 * The whole answer for one VMI: its requirements, every node judged, the nodes grouped by the
 * first requirement they fail so that 5,000 nodes give a short answer, and, for a running VMI,
 * where it could live-migrate. Pure: the nodes, their reports and the KubeVirt config are read
 * beforehand (read-cluster.ts).
 */
export interface ExplainInput {
  vmi: VmiInput;
  /** What its virt-launcher pod requests, when KubeVirt has made one (read-cluster.ts). */
  launcherRequests?: Readonly<Record<string, number>> | null;
  config: KubeVirtPlacementConfig;
  nodes: readonly NodeView[];
  context: JudgeContext;
}

const GROUP_NODES = 10;

export interface ExplainOptions {
  /** Every node with all its failures (the CLI); false: the groups alone, each node judged up to its first failure. */
  perNode: boolean;
}

export function explain({ vmi, config, nodes, context, launcherRequests = null }: ExplainInput, options: ExplainOptions = { perNode: true }): ExplainResult {
  const start = launcherRequirements(vmi, config, { launcherRequests });
  const placement = place(nodes, start.requirements, context, options);
  const source = vmi.status.nodeName === null ? null : nodes.find((view) => view.node.name === vmi.status.nodeName);
  let migration: ExplainResult['migration'] = null;
  const notes = [...start.notes];
  if (vmi.status.nodeName !== null && isRunning(vmi)) {
    const migrate = launcherRequirements(vmi, config, { migrationSourceLabels: source?.node.labels ?? {}, launcherRequests });
    for (const note of migrate.notes) if (!notes.includes(note)) notes.push(note);
    if (!source) notes.push(`the node it runs on, ${vmi.status.nodeName}, is not among the nodes read: migration targets judged without its CPU model`);
    migration = { from: vmi.status.nodeName, ...place(nodes.filter((view) => view.node.name !== vmi.status.nodeName), migrate.requirements, context, options) };
  }
  const canRun = placement.fitting.length > 0;
  return {
    ...typeMeta(DOCUMENT_KINDS.explain),
    vmi: { kind: vmi.kind, name: vmi.name, namespace: vmi.namespace, source: vmi.source, phase: vmi.status.phase, nodeName: vmi.status.nodeName },
    requirements: start.requirements.map(({ id, source: why, text, because }) => ({ id, source: why, text, because })),
    notes,
    placement,
    migration,
    result: canRun ? 'can-run' : 'cannot-run',
    exitCode: canRun ? 0 : 1,
  };
}

function isRunning(vmi: VmiInput): boolean {
  return vmi.status.phase === 'Running';
}

function place(nodes: readonly NodeView[], requirements: readonly Requirement[], context: JudgeContext, options: ExplainOptions): Placement {
  const judged = [...nodes].sort((a, b) => (a.node.name < b.node.name ? -1 : a.node.name > b.node.name ? 1 : 0)).map((view) => ({ view, judgement: judgeNode(view, requirements, context, !options.perNode) }));
  return {
    candidates: judged.length,
    fitting: judged.filter(({ judgement }) => judgement.fits).map(({ judgement }) => judgement.node),
    groups: groupByFirstFailure(judged.map(({ judgement }) => judgement), requirements),
    nodes: !options.perNode ? [] : judged.map(({ view, judgement }) => ({
      name: judgement.node,
      fits: judgement.fits,
      virtgate: { state: view.assessed.readiness.state, reason: view.assessed.readiness.reason },
      failures: judgement.failures,
    })),
  };
}

/** Largest group first; among equals, the earlier requirement first. Nodes in a group by name. */
function groupByFirstFailure(judgements: readonly NodeJudgement[], requirements: readonly Requirement[]): Placement['groups'] {
  // By requirement, then by cause: no key string built per node.
  const groups = new Map<string, Map<string, Placement['groups'][number]>>();
  for (const judgement of judgements) {
    const [first] = judgement.failures;
    if (!first) continue;
    let byCause = groups.get(first.requirement);
    if (!byCause) groups.set(first.requirement, (byCause = new Map()));
    const group = byCause.get(first.cause);
    if (group) {
      group.count += 1;
      if (group.nodes.length < GROUP_NODES) group.nodes.push(judgement.node);
      continue;
    }
    byCause.set(first.cause, { requirement: first.requirement, cause: first.cause, count: 1, nodes: [judgement.node], example: { node: judgement.node, detail: first.detail }, remedy: first.remedy });
  }
  const order = new Map(requirements.map((requirement, index) => [requirement.id, index]));
  return [...groups.values()].flatMap((byCause) => [...byCause.values()]).sort((a, b) => b.count - a.count || (order.get(a.requirement) ?? 0) - (order.get(b.requirement) ?? 0) || (a.cause < b.cause ? -1 : 1));
}
