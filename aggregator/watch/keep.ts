import { type NodeModel, parseNode } from '../model/node.ts';
import { parseNodeValidation, type ReportParse } from '../model/report.ts';
import { projectNode, projectReport } from './project.ts';

/**
 * What the informers store of each Node and NodeValidation: the object narrowed for the gate,
 * once, when it arrives. Narrowing (zod) all 5,000 reports again on every recompute was most of a
 * recompute's time. The object is projected first and the projection narrowed, exactly what
 * `gate` does with a snapshot of projections (project.test.ts checks that this answers as the
 * whole object does), so the stored models are the ones the gate would build itself.
 * Neither step throws. Models are never mutated after this: recomputes share them.
 */
export function keepNode(raw: unknown): NodeModel | null {
  return parseNode(projectNode(raw));
}

export function keepReport(raw: unknown): ReportParse {
  return parseNodeValidation(projectReport(raw));
}
