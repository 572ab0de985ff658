import type { NodeModel } from '../model/node.ts';
import type { NodeReport } from '../../core/report/read.ts';
import { clip } from '../../core/untrusted.ts';

/**
 * Whether a report really belongs to the Node it is named after. The admission policy lets an
 * agent write only its own node's NodeValidation, but the aggregator does not rely on that alone:
 * a report whose spec.nodeName differs from its name, or whose ownerReference is not this Node
 * (by uid when the Node's uid is known), is ignored. Returns why, or null when it belongs.
 */
export function attributionProblem(report: NodeReport, node: NodeModel): string | null {
  if (report.nodeName !== node.name) {
    return `report ${clip(report.name, 80)} names spec.nodeName ${clip(report.nodeName, 80)}, not its own node`;
  }
  // One pass, no intermediate list: this runs for every node on every recompute.
  let nodeOwners = 0;
  for (const owner of report.ownerReferences) {
    if (owner.kind !== 'Node') continue;
    nodeOwners += 1;
    if (owner.apiVersion !== 'v1' || owner.name !== node.name) {
      return `report is owned by ${clip(owner.apiVersion, 40)} Node ${clip(owner.name, 80)}, not by this node`;
    }
    if (node.uid !== null && owner.uid !== node.uid) {
      return `report's ownerReference uid ${clip(owner.uid ?? '(none)', 40)} is not this Node's uid ${node.uid}`;
    }
  }
  return nodeOwners === 0 ? 'report has no ownerReference to its Node' : null;
}
