import type { ClusterModel } from '../model/cluster.ts';
import type { GateConfig } from '../model/config.ts';
import type { ReportParse } from '../model/report.ts';
import { clip } from '../model/untrusted.ts';
import { type AssessedNode, assessNode } from './assess-node.ts';
import { compareWorstFirst } from './sort.ts';
import { type ClusterReadiness, NODE_STATES, type NodeState } from '../documents/readiness.ts';

const MAX_ORPHANS_LISTED = 10;

/** Every node assessed, worst first, and the reports nobody claims. Pure; O(nodes + reports). */
export function assessNodes(
  model: ClusterModel,
  config: Pick<GateConfig, 'staleAfterSeconds' | 'prefix'>,
  now: Date,
): { nodes: AssessedNode[]; orphanReports: string[]; unnamedReports: number } {
  // Reports by the name they claim, and whether a Node of that name took them: the ones no Node
  // takes are the orphans (marking beats a second set of 5,000 names on every recompute).
  const byName = new Map<string, { parses: ReportParse[]; claimed: boolean }>();
  let unnamedReports = 0;
  for (const parse of model.reports) {
    const name = parse.state === 'valid' ? parse.report.name : parse.name;
    if (name === null) {
      unnamedReports += 1;
      continue;
    }
    const entry = byName.get(name);
    if (entry) entry.parses.push(parse);
    else byName.set(name, { parses: [parse], claimed: false });
  }
  const options = { staleAfterSeconds: config.staleAfterSeconds, prefix: config.prefix, nowMs: now.getTime() };
  const nodes = model.nodes.map((node) => {
    const entry = byName.get(node.name);
    if (entry) entry.claimed = true;
    return assessNode(node, entry?.parses ?? [], options);
  });
  const orphanReports: string[] = [];
  byName.forEach((entry, name) => {
    if (!entry.claimed) orphanReports.push(name);
  });
  orphanReports.sort();
  nodes.sort((a, b) => compareWorstFirst(a.readiness, b.readiness));
  return { nodes, orphanReports, unnamedReports };
}

/** Counts by state, the ready ratio and the nodes worst first. */
export function summariseReadiness(
  model: ClusterModel,
  assessed: { nodes: readonly AssessedNode[]; orphanReports: readonly string[]; unnamedReports: number },
): ClusterReadiness {
  const counts = Object.fromEntries(NODE_STATES.map((state) => [state, 0])) as Record<NodeState, number>;
  for (const item of assessed.nodes) counts[item.readiness.state] += 1;
  const total = assessed.nodes.length;
  return {
    total,
    counts,
    readyRatio: total === 0 ? 0 : (counts.ready + counts.emulation) / total,
    nodes: assessed.nodes.map((item) => item.readiness),
    ignored: {
      unnamedNodes: model.ignoredNodes.unnamed,
      duplicateNodes: model.ignoredNodes.duplicates,
      orphanReports: assessed.orphanReports.slice(0, MAX_ORPHANS_LISTED).map((name) => clip(name, 80)),
      orphanReportCount: assessed.orphanReports.length,
      unnamedReports: assessed.unnamedReports,
    },
  };
}

/** Cluster readiness in one call, for callers that do not need the gate. */
export function computeReadiness(model: ClusterModel, config: Pick<GateConfig, 'staleAfterSeconds' | 'prefix'>, now: Date): ClusterReadiness {
  return summariseReadiness(model, assessNodes(model, config, now));
}
