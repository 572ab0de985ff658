import { type CdiSummary, summariseCdi } from './cdi.ts';
import { type KubeVirtSummary, summariseKubeVirt } from './kubevirt.ts';
import { type NodeModel, parseNode } from './node.ts';
import { parseNodeValidation, type ReportParse } from './report.ts';
import type { ClusterSnapshot } from './snapshot.ts';
import { boundedString, safely } from './untrusted.ts';

/** A snapshot after narrowing: every field typed, nothing left to throw on. */
export interface ClusterModel {
  serverGitVersion: string | null;
  /** Sorted by name, one per name. */
  nodes: NodeModel[];
  reports: ReportParse[];
  kubevirt: KubeVirtSummary;
  cdi: CdiSummary;
  /** Node objects without a usable name, and repeated names (the first one is kept). */
  ignoredNodes: { unnamed: number; duplicates: number };
}

/** Narrows every object of a snapshot. Pure; never throws. */
export function parseSnapshot(snapshot: ClusterSnapshot): ClusterModel {
  const rawNodes = safely(() => (Array.isArray(snapshot.nodes) ? snapshot.nodes : []), []);
  const rawReports = safely(() => (Array.isArray(snapshot.nodeValidations) ? snapshot.nodeValidations : []), []);
  const byName = new Map<string, NodeModel>();
  let unnamed = 0;
  let duplicates = 0;
  for (const raw of rawNodes) {
    const node = parseNode(raw);
    if (node === null) unnamed += 1;
    else if (byName.has(node.name)) duplicates += 1;
    else byName.set(node.name, node);
  }
  return {
    serverGitVersion: safely(() => boundedString(snapshot.serverGitVersion, 256), null),
    nodes: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    // Array.from, not map: map keeps the holes of a sparse array, which readiness would then trip on.
    reports: Array.from(rawReports, (raw) => parseNodeValidation(raw)),
    kubevirt: summariseKubeVirt(safely(() => snapshot.kubevirt, { state: 'unknown', reason: 'missing' })),
    cdi: summariseCdi(safely(() => snapshot.cdi, { state: 'unknown', reason: 'missing' })),
    ignoredNodes: { unnamed, duplicates },
  };
}
