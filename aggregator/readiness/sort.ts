import type { NodeReadiness, NodeState } from '../documents/readiness.ts';

/**
 * Worst first: not-ready (a known problem), then unknown (no usable report), then emulation
 * (runs VMs slowly), then ready; by name within a state, so the order is stable.
 */
const SEVERITY: Record<NodeState, number> = { 'not-ready': 0, unknown: 1, emulation: 2, ready: 3 };

export function compareWorstFirst(a: Pick<NodeReadiness, 'state' | 'name'>, b: Pick<NodeReadiness, 'state' | 'name'>): number {
  return SEVERITY[a.state] - SEVERITY[b.state] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

export function worstFirst<T extends Pick<NodeReadiness, 'state' | 'name'>>(items: readonly T[]): T[] {
  return [...items].sort(compareWorstFirst);
}

/** Ready and emulation nodes can take VMs (emulation only with KubeVirt useEmulation). */
export function canRunVms(state: NodeState): boolean {
  return state === 'ready' || state === 'emulation';
}
