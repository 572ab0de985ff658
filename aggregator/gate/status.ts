import type { GateStatus } from '../documents/gate.ts';

/** Exit codes of `virtgate gate` and `virtgate tuple`: 0 pass, 1 fail, 3 warn or unknown. */
export const GATE_EXIT = { pass: 0, fail: 1, warn: 3 } as const;
export type GateExitCode = (typeof GATE_EXIT)[keyof typeof GATE_EXIT];

const RANK: Record<GateStatus, number> = { pass: 0, unknown: 1, warn: 2, fail: 3 };

/** The worst status: fail > warn > unknown > pass; pass for no checks. */
export function worstStatus(statuses: readonly GateStatus[]): GateStatus {
  return statuses.reduce<GateStatus>((worst, status) => (RANK[status] > RANK[worst] ? status : worst), 'pass');
}

export function exitCodeFor(result: GateStatus): GateExitCode {
  if (result === 'pass') return GATE_EXIT.pass;
  if (result === 'fail') return GATE_EXIT.fail;
  return GATE_EXIT.warn;
}
