import type { JsonObject } from '../../core/json.ts';
import type { ClusterReadiness } from '../readiness/types.ts';
import type { ObservedVersion } from './observed-version.ts';

/** Stable gate check ids: the JSON, the metrics and the page use them (docs/gate.md). */
export const TUPLE_CHECK_IDS = ['tuple.kubernetes-supported', 'tuple.kubernetes-eol', 'tuple.cdi-paired', 'tuple.data-fresh'] as const;

export const GATE_CHECK_IDS = [
  ...TUPLE_CHECK_IDS,
  'kubevirt.deployed',
  'kubevirt.emulation-consistent',
  'kubevirt.placement',
  'nodes.min-ready',
  'nodes.runtime',
  'nodes.migration-pairs',
  'nodes.kernel-userland',
  'nodes.reports-fresh',
  'cluster.privileged',
] as const;
export type TupleCheckId = (typeof TUPLE_CHECK_IDS)[number];
export type GateCheckId = (typeof GATE_CHECK_IDS)[number];

/** `unknown`: the gate could not tell (missing data). It counts as a warning for exit codes. */
export const GATE_STATUSES = ['pass', 'unknown', 'warn', 'fail'] as const;
export type GateStatus = (typeof GATE_STATUSES)[number];

export interface GateCheck<Id extends GateCheckId = GateCheckId> {
  id: Id;
  status: GateStatus;
  /** One line a platform engineer can act on; includes the fix when there is one. */
  message: string;
  /** What the check looked at: small (lists capped, strings clipped), JSON-serialisable. */
  evidence: JsonObject;
}

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

/** The versions the tuple checks compared. */
export interface VersionTuple {
  kubernetes: ObservedVersion;
  kubevirt: ObservedVersion;
  cdi: ObservedVersion;
}

/** `virtgate tuple` and the tuple part of the gate. */
export interface TupleReport {
  result: GateStatus;
  exitCode: GateExitCode;
  /** The evaluation day, YYYY-MM-DD (UTC). */
  date: string;
  tuple: VersionTuple;
  /** The version data's `updated` day. */
  dataUpdated: string;
  checks: Array<GateCheck<TupleCheckId>>;
}

/** The whole gate, served at /api/v1/gate; `readiness` feeds /api/v1/summary and /api/v1/nodes. */
export interface GateReport {
  result: GateStatus;
  exitCode: GateExitCode;
  /** The evaluation time (ISO 8601). */
  evaluatedAt: string;
  /** Every id of GATE_CHECK_IDS, in that order. */
  checks: GateCheck[];
  versions: VersionTuple & { dataUpdated: string };
  readiness: ClusterReadiness;
}
