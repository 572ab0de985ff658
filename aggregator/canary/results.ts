import type { VmBoot } from '../../core/report/schema.ts';
import type { ClusterModel } from '../model/cluster.ts';
import type { NodeReport } from '../../core/report/read.ts';
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
  // Most recomputes of a cluster without the canary end here, having built nothing.
  if (!model.reports.some((parse) => parse.state === 'valid' && parse.report.vmBoot !== null)) return [];
  // Per name, the report with a result; null when none has one, or several reports claim the
  // name (readiness trusts none of them, and neither does the canary summary).
  const byName = new Map<string, NodeReport | null>();
  for (const parse of model.reports) {
    const name = parse.state === 'valid' ? parse.report.name : parse.name;
    if (name === null) continue;
    byName.set(name, byName.has(name) || parse.state !== 'valid' || parse.report.vmBoot === null ? null : parse.report);
  }
  const results: NodeCanaryResult[] = [];
  for (const node of model.nodes) {
    const report = byName.get(node.name);
    if (report?.vmBoot && attributionProblem(report, node) === null) results.push({ node: node.name, vmBoot: report.vmBoot });
  }
  return results;
}
