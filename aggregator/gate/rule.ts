import type { JsonValue } from '../../core/json.ts';
import type { ClusterModel } from '../model/cluster.ts';
import type { GateConfig } from '../model/config.ts';
import type { AssessedNode } from '../readiness/assess-node.ts';
import type { VersionData } from '../versions/schema.ts';
import type { ClusterReadiness } from '../documents/readiness.ts';
import type { GateStatus, HostDeviceAvailability, VersionTuple } from '../documents/gate.ts';
import type { MigrationPlan } from './migration.ts';

/**
 * A gate rule: one check id and its pure evaluation. Rules are listed once, in rules.ts; the gate's
 * check ids and their order come from that list.
 */
export interface GateRule<Inputs, Id extends string = string> {
  readonly id: Id;
  readonly evaluate: (inputs: Inputs) => Finding;
}

/** What a rule concludes; the gate adds the rule's id to make the published check. */
export interface Finding {
  status: GateStatus;
  /** One line a platform engineer can act on; includes the fix when there is one. */
  message: string;
  /** What the rule looked at; its keys per check are listed in docs/gate.md. */
  evidence: Record<string, JsonValue>;
}

/** The version checks' inputs: `virtgate tuple` offline, and the gate's first checks. */
export interface TupleInputs {
  tuple: VersionTuple;
  data: VersionData;
  config: Pick<GateConfig, 'eolWarnDays' | 'dataMaxAgeDays'>;
  /** The evaluation day, as UTC midnight in ms. */
  todayMs: number;
}

/** The cluster checks' inputs: the narrowed model and what the gate derives from it once, for every rule. */
export interface ClusterInputs {
  model: ClusterModel;
  config: GateConfig;
  /** Every node with its readiness, as of the evaluation time. */
  nodes: readonly AssessedNode[];
  plan: MigrationPlan;
  readiness: ClusterReadiness;
  /** Each permitted host device against the nodes; null when it could not be computed (a bug the rule reports). */
  hostDevices: readonly HostDeviceAvailability[] | null;
}

/** Declares a rule; `const Id` keeps the id's literal type, so the registry's ids are a typed list. */
export function gateRule<const Id extends string, Inputs>(id: Id, evaluate: (inputs: Inputs) => Finding): GateRule<Inputs, Id> {
  return { id, evaluate };
}
