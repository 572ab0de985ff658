import { type CdiSummary, summariseCdi } from './cdi.ts';
import { type KubeVirtSummary, summariseKubeVirt } from './kubevirt.ts';
import { type NodeModel, parseNode } from './node.ts';
import { readReport, type ReportParse } from '../../core/report/read.ts';
import type { ClusterSnapshot, CustomResourceObservation, ParsedSnapshot } from './snapshot.ts';
import { sameItems } from '../../core/same-items.ts';
import { boundedString, safely } from '../../core/untrusted.ts';
import { summariseVmis, type VmiSummary } from './vmi.ts';

/** A snapshot after narrowing: every field typed, nothing left to throw on. */
export interface ClusterModel {
  serverGitVersion: string | null;
  /** Sorted by name, one per name. Shared by the models made from the same Node objects: read only. */
  nodes: readonly NodeModel[];
  reports: ReportParse[];
  kubevirt: KubeVirtSummary;
  cdi: CdiSummary;
  /** Running LiveMigrate VMIs per node, when KubeVirt's VMIs are read. */
  vmis: VmiSummary;
  /** Node objects without a usable name, and repeated names (the first one is kept). */
  ignoredNodes: { unnamed: number; duplicates: number };
}

const MISSING: CustomResourceObservation = { state: 'unknown', reason: 'missing' };

/** Narrows every object of a snapshot. Same input, same output (see modelOf's cache); never throws. */
export function parseSnapshot(snapshot: ClusterSnapshot): ClusterModel {
  const rawNodes = safely(() => (Array.isArray(snapshot.nodes) ? snapshot.nodes : []), []);
  const rawReports = safely(() => (Array.isArray(snapshot.nodeValidations) ? snapshot.nodeValidations : []), []);
  return modelOf({
    serverGitVersion: safely(() => snapshot.serverGitVersion, null),
    // Array.from, not map: map keeps the holes of a sparse array, which readiness would then trip on.
    nodes: Array.from(rawNodes, (raw) => parseNode(raw)),
    reports: Array.from(rawReports, (raw) => readReport(raw)),
    kubevirt: safely(() => snapshot.kubevirt, MISSING),
    cdi: safely(() => snapshot.cdi, MISSING),
    vmis: safely(() => snapshot.vmis, undefined),
  });
}

/**
 * The model of objects narrowed one by one (ParsedSnapshot): one Node per name, sorted, and the
 * KubeVirt and CDI objects summarised. Same input, same output; never throws. Cheap: it only
 * indexes and sorts what was already narrowed, so the aggregator can run it on every recompute.
 * It remembers its last Node index (`lastIndex`) by the identity of the Node objects, which the
 * aggregator replaces and never edits in place.
 */
export function modelOf(parsed: ParsedSnapshot): ClusterModel {
  const { nodes, unnamed, duplicates } = indexNodes(parsed.nodes);
  const kubevirt = summariseKubeVirt(safely(() => parsed.kubevirt, MISSING));
  return {
    serverGitVersion: safely(() => boundedString(parsed.serverGitVersion, 256), null),
    nodes,
    reports: [...parsed.reports],
    kubevirt,
    cdi: summariseCdi(safely(() => parsed.cdi, MISSING)),
    // A VMI without its own eviction strategy follows the KubeVirt CR's.
    vmis: summariseVmis(safely(() => parsed.vmis, undefined), kubevirt.state === 'present' ? kubevirt.cr.evictionStrategy : null),
    ignoredNodes: { unnamed, duplicates },
  };
}

interface NodeIndex {
  nodes: readonly NodeModel[];
  unnamed: number;
  duplicates: number;
}

/**
 * The last index and the Node objects it was made from. Most recomputes follow a report's change
 * while every Node object is the same (the watch replaces an object when it changes): then the
 * index is the same, and 100,000 nodes cost one comparison each instead of a map and a sort.
 */
let lastIndex: { from: readonly (NodeModel | null)[]; index: NodeIndex } | null = null;

/** One Node per name (the first), sorted by name, and what was left out. */
function indexNodes(from: readonly (NodeModel | null)[]): NodeIndex {
  if (lastIndex !== null && sameItems(lastIndex.from, from)) return lastIndex.index;
  const byName = new Map<string, NodeModel>();
  let unnamed = 0;
  let duplicates = 0;
  for (const node of from) {
    if (node === null) unnamed += 1;
    else if (byName.has(node.name)) duplicates += 1;
    else byName.set(node.name, node);
  }
  const nodes = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const index = { nodes, unnamed, duplicates };
  lastIndex = { from: [...from], index };
  return index;
}
