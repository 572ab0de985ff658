import { type NodeModel, parseNode } from '../model/node.ts';
import { readReport, type ReportParse } from '../../core/report/read.ts';

/**
 * What the informers store of each Node and NodeValidation: the object narrowed for the gate,
 * once, when it arrives, by the same functions `gate` narrows a whole snapshot with (so the
 * stored models are the ones the gate would build itself; keep.test.ts checks it on hostile
 * objects). Narrowing (zod) all 5,000 reports again on every recompute was most of a recompute's
 * time. Only the fields the gate reads are kept, bounded: a real Node carries images,
 * managedFields and conditions with long messages, a NodeValidation carries the inventory, what
 * each check observed and virt-host-validate lines. Dropping those on arrival keeps 5,000 nodes well inside the memory
 * budget and makes kubelet heartbeat updates (which change nothing here) compare equal, so they
 * cause no recompute. Neither step throws. Models are never mutated after this: recomputes share them.
 */
export function keepNode(raw: unknown): NodeModel | null {
  return parseNode(raw);
}

export function keepReport(raw: unknown): ReportParse {
  return readReport(raw);
}
