import type { GateResult } from '../documents/gate.ts';
import type { NodeReadiness } from '../documents/readiness.ts';

/**
 * GET /api/v1/nodes/:name looks a node up by name. The index is built on the first lookup in a
 * report, not on every recompute: at 5,000 nodes building it took a tenth of a recompute, and most
 * reports are replaced before anyone asks for one node.
 */
export class NodeIndex {
  /** Keyed weakly by the report: a replaced report and its index go together. */
  private readonly byReport = new WeakMap<GateResult, ReadonlyMap<string, NodeReadiness>>();

  get(report: GateResult, name: string): NodeReadiness | undefined {
    let index = this.byReport.get(report);
    if (!index) {
      index = new Map(report.readiness.nodes.map((node) => [node.name, node]));
      this.byReport.set(report, index);
    }
    return index.get(name);
  }
}
