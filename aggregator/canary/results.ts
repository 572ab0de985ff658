import type { VmBoot } from '../../core/report/schema.ts';
import type { ClusterModel } from '../model/cluster.ts';
import type { NodeReport } from '../model/report.ts';
import { attributionProblem } from '../readiness/attribution.ts';

/** One node's last VM canary result (its report's status.vmBoot). */
export interface NodeCanaryResult {
  node: string;
  vmBoot: VmBoot;
}

/**
 * Every node's canary result, read off the reports the way readiness trusts them: the one valid
 * report named after an existing Node and attributed to it (readiness/attribution.ts). A report
 * claimed twice, orphaned or forged gives nothing. Sorted by node name. Pure; O(nodes + reports),
 * and it builds nothing per node for the reports that carry no result.
 */
export function canaryResults(model: Pick<ClusterModel, 'nodes' | 'reports'>): NodeCanaryResult[] {
  const candidates = new Map<string, NodeReport>();
  for (const parse of model.reports) {
    if (parse.state === 'valid' && parse.report.vmBoot !== null) candidates.set(parse.report.name, parse.report);
  }
  if (candidates.size === 0) return [];
  // Readiness trusts none of several reports claiming one name; neither does the canary summary.
  const claims = new Map<string, number>();
  for (const parse of model.reports) {
    const name = parse.state === 'valid' ? parse.report.name : parse.name;
    if (name !== null && candidates.has(name)) claims.set(name, (claims.get(name) ?? 0) + 1);
  }
  const results: NodeCanaryResult[] = [];
  for (const node of model.nodes) {
    const report = candidates.get(node.name);
    if (report?.vmBoot && claims.get(node.name) === 1 && attributionProblem(report, node) === null) results.push({ node: node.name, vmBoot: report.vmBoot });
  }
  return results;
}
