import { type ClusterModel, parseSnapshot } from '../model/cluster.ts';
import type { GateConfig } from '../model/config.ts';
import type { ClusterSnapshot } from '../model/snapshot.ts';
import { assessNodes, summariseReadiness } from '../readiness/cluster-readiness.ts';
import type { VersionData } from '../versions/schema.ts';
import { hostDeviceAvailability } from './host-devices.ts';
import { safely } from '../../core/untrusted.ts';
import { clusterVersions } from './cluster-versions.ts';
import { applyRule } from './guard.ts';
import type { ClusterInputs } from './rule.ts';
import { CLUSTER_RULES } from './rules.ts';
import { migrationPlan, targetCounts } from './migration.ts';
import { evaluateTuple } from './tuple.ts';
import { exitCodeFor, worstStatus } from './status.ts';
import type { GateCheck, GateResult } from '../documents/gate.ts';

/**
 * The runtime validation gate: a pure function of the cluster's objects, the version data, the
 * config and the evaluation time. Same input, same output; no I/O, no clock (its costly parts are
 * memoized by the input objects' identity: migration.ts, cluster-readiness.ts). Every object in the
 * snapshot is untrusted and narrowed first; the gate never throws on its content and always returns
 * every rule's check, in the order of rules.ts. Only an invalid `now` (a programming error) throws.
 */
export function gate(snapshot: ClusterSnapshot, data: VersionData, config: GateConfig, now: Date): GateResult {
  if (Number.isNaN(now.getTime())) throw new TypeError('gate: now must be a valid Date');
  return evaluateGate(parseSnapshot(snapshot), data, config, now);
}

/**
 * The gate on a model whose objects are already narrowed: the aggregator narrows each object once,
 * when it arrives, and builds the model with `modelOf`; `gate` narrows a whole snapshot first.
 * The same pure function either way.
 */
export function evaluateGate(model: ClusterModel, data: VersionData, config: GateConfig, now: Date): GateResult {
  if (Number.isNaN(now.getTime())) throw new TypeError('gate: now must be a valid Date');
  const assessed = assessNodes(model, config, now);
  const plan = migrationPlan(assessed.nodes);
  const readiness = summariseReadiness(model, assessed, now, targetCounts(plan, assessed.nodes));
  const nodes = assessed.nodes;
  const versions = clusterVersions(model);
  const kubevirt = model.kubevirt;
  // Over narrowed data it cannot throw; if it ever did, its rule reports it and the gate still answers.
  const hostDevices = kubevirt.state === 'present' ? safely(() => hostDeviceAvailability(kubevirt.cr.permittedHostDevices, nodes), null) : [];
  const tuple = evaluateTuple(versions, data, config, config.calendarDate ? new Date(`${config.calendarDate}T00:00:00Z`) : now);
  const inputs: ClusterInputs = { model, config, nodes, plan, readiness, hostDevices };
  const checks: GateCheck[] = [...tuple.checks, ...CLUSTER_RULES.map((rule) => applyRule(rule, inputs))];
  const result = worstStatus(checks.map((check) => check.status));
  return {
    result,
    exitCode: exitCodeFor(result),
    evaluatedAt: now.toISOString(),
    checks,
    versions: { ...versions, dataUpdated: data.updated },
    readiness,
    hostDevices: hostDevices ?? [],
  };
}
