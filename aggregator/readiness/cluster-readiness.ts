import type { ClusterModel } from '../model/cluster.ts';
import type { GateConfig } from '../model/config.ts';
import type { ReportParse } from '../../core/report/read.ts';
import { clip } from '../../core/untrusted.ts';
import type { NodeModel } from '../model/node.ts';
import { sameItems } from '../../core/same-items.ts';
import { type AssessedNode, assessNode, heartbeatAgeSeconds, stillValidAt } from './assess-node.ts';
import { compareWorstFirst } from './sort.ts';
import { type ClusterReadiness, NODE_STATES, type NodeState } from '../documents/readiness.ts';

const MAX_ORPHANS_LISTED = 10;

/**
 * The last assessment of each Node object, and what it was made from. The aggregator narrows a
 * Node or report once, when it arrives, and replaces (never changes) the object when it changes:
 * while a node's objects are the same and its answer does not move with the clock
 * (assess-node.ts stillValidAt), its assessment is the same, so a recompute at 100,000 nodes
 * re-assesses only the nodes whose objects changed. Same input, same output: a cache, not state.
 */
const kept = new WeakMap<NodeModel, { parses: readonly ReportParse[]; staleAfterSeconds: number; prefix: string; assessed: AssessedNode }>();

/** The node's assessment from its reports, `named[from..to)`: copied out only when it is made again. */
function assessKept(node: NodeModel, named: readonly ReportParse[], from: number, to: number, options: { staleAfterSeconds: number; prefix: string; nowMs: number }): AssessedNode {
  const entry = kept.get(node);
  if (entry && entry.staleAfterSeconds === options.staleAfterSeconds && entry.prefix === options.prefix && sameItems(entry.parses, named, from, to) && stillValidAt(entry.assessed, options)) {
    return entry.assessed;
  }
  const parses = from === to ? NO_REPORTS : named.slice(from, to);
  const assessed = assessNode(node, parses, options);
  kept.set(node, { parses, staleAfterSeconds: options.staleAfterSeconds, prefix: options.prefix, assessed });
  return assessed;
}

/**
 * Every node assessed, worst first, and the reports nobody claims; O(nodes + reports). Same input,
 * same output, with each node's assessment memoized by object identity (`kept` above): inputs must
 * be replaced, never edited in place.
 */
export function assessNodes(
  model: ClusterModel,
  config: Pick<GateConfig, 'staleAfterSeconds' | 'prefix'>,
  now: Date,
): { nodes: AssessedNode[]; orphanReports: string[]; unnamedReports: number } {
  // Reports sorted by the name they claim, walked beside the nodes (sorted by name in the model):
  // the reports between two nodes' names are the orphans. A merge, not a map of 100,000 names
  // built on every recompute; the reports usually arrive sorted already (the API server lists them so).
  const named: ReportParse[] = [];
  let unnamedReports = 0;
  for (const parse of model.reports) {
    if (reportName(parse) === null) unnamedReports += 1;
    else named.push(parse);
  }
  named.sort((a, b) => compareNames(reportName(a) as string, reportName(b) as string));
  const orphanReports: string[] = [];
  const options = { staleAfterSeconds: config.staleAfterSeconds, prefix: config.prefix, nowMs: now.getTime() };
  let next = 0;
  const orphansBefore = (name: string | null) => {
    for (let claim = reportName(named[next]); claim !== null && (name === null || claim < name); claim = reportName(named[next])) {
      if (orphanReports[orphanReports.length - 1] !== claim) orphanReports.push(claim);
      next += 1;
    }
  };
  const nodes = model.nodes.map((node) => {
    orphansBefore(node.name);
    const first = next;
    while (next < named.length && reportName(named[next]) === node.name) next += 1;
    return assessKept(node, named, first, next, options);
  });
  orphansBefore(null);
  nodes.sort((a, b) => compareWorstFirst(a.readiness, b.readiness));
  return { nodes, orphanReports, unnamedReports };
}

const NO_REPORTS: readonly ReportParse[] = [];

/** The node name a report claims (null: unreadable, or past the end of a list). */
function reportName(parse: ReportParse | undefined): string | null {
  if (parse === undefined) return null;
  return parse.state === 'valid' ? parse.report.name : parse.name;
}

const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Counts by state, the ready ratio and the nodes worst first, each with its heartbeat's age at
 * `now` and its live-migration target count (`targets`, aligned with `assessed.nodes`, from
 * gate/migration.ts; none: null).
 */
export function summariseReadiness(
  model: ClusterModel,
  assessed: { nodes: readonly AssessedNode[]; orphanReports: readonly string[]; unnamedReports: number },
  now: Date,
  targets: readonly (number | null)[] = [],
): ClusterReadiness {
  const counts = Object.fromEntries(NODE_STATES.map((state) => [state, 0])) as Record<NodeState, number>;
  for (const item of assessed.nodes) counts[item.readiness.state] += 1;
  const total = assessed.nodes.length;
  const nowMs = now.getTime();
  return {
    total,
    counts,
    readyRatio: total === 0 ? 0 : (counts.ready + counts.emulation) / total,
    nodes: assessed.nodes.map(({ readiness, report }, index) => ({
      ...readiness,
      heartbeatAgeSeconds: report === null ? null : heartbeatAgeSeconds(report, nowMs),
      migrationTargets: targets[index] ?? null,
    })),
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
  return summariseReadiness(model, assessNodes(model, config, now), now);
}
