import type { GateCheck, GateCheckId } from '../documents/gate.ts';
import type { GateRule } from './rule.ts';

/**
 * Runs one rule; if it throws despite the narrowing (a bug), the gate reports that check as
 * unknown instead of failing the whole evaluation. Tests assert this never happens.
 */
export function applyRule<Inputs, Id extends GateCheckId>(rule: GateRule<Inputs, Id>, inputs: Inputs): GateCheck<Id> {
  try {
    return { id: rule.id, ...rule.evaluate(inputs) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { id: rule.id, status: 'unknown', message: `internal error evaluating ${rule.id}: ${detail.slice(0, 200)}`, evidence: {} };
  }
}
