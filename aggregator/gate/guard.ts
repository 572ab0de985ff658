import type { GateCheck, GateCheckId } from '../documents/gate.ts';

/**
 * Runs one check; if it throws despite the narrowing (a bug), the gate reports that check as
 * unknown instead of failing the whole evaluation. Tests assert this never happens.
 */
export function guarded<Id extends GateCheckId>(id: Id, check: () => GateCheck<Id>): GateCheck<Id> {
  try {
    return check();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { id, status: 'unknown', message: `internal error evaluating ${id}: ${detail.slice(0, 200)}`, evidence: {} };
  }
}
