import { type ClusterModel, parseSnapshot } from '../model/cluster.ts';
import type { GateConfig } from '../model/config.ts';
import type { ClusterSnapshot } from '../model/snapshot.ts';
import { assessNodes, summariseReadiness } from '../readiness/cluster-readiness.ts';
import type { VersionData } from '../versions/schema.ts';
import { checkPrivileged } from './checks/cluster.ts';
import { checkConfidential } from './checks/confidential.ts';
import { checkEmulationConsistent, checkKubeVirtDeployed } from './checks/kubevirt.ts';
import { checkKernelUserland, checkMigrationPairs, checkMinReady, checkReportsFresh, checkRuntime } from './checks/nodes.ts';
import { checkPlacement } from './checks/placement.ts';
import { checkHostDevices } from './checks/host-devices.ts';
import { hostDeviceAvailability } from './host-devices.ts';
import { canRunVms } from '../readiness/sort.ts';
import { safely } from '../model/untrusted.ts';
import { clusterVersions } from './cluster-versions.ts';
import { guarded } from './guard.ts';
import { migrationPlan, targetCounts } from './migration.ts';
import { evaluateTuple } from './tuple.ts';
import { exitCodeFor, worstStatus } from './status.ts';
import type { GateCheck, GateResult } from '../documents/gate.ts';

/**
 * The runtime validation gate: a pure function of the cluster's objects, the version data, the
 * config and the evaluation time. Same input, same output; no I/O, no clock. Every object in the
 * snapshot is untrusted and narrowed first; the gate never throws on its content and always returns
 * every id of GATE_CHECK_IDS, in order. Only an invalid `now` (a programming error) throws.
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
  // Over narrowed data it cannot throw; if it ever did, the check reports it and the gate still answers.
  const hostDevices = kubevirt.state === 'present' ? safely(() => hostDeviceAvailability(kubevirt.cr.permittedHostDevices, nodes), null) : [];
  const tuple = evaluateTuple(versions, data, config, config.calendarDate ? new Date(`${config.calendarDate}T00:00:00Z`) : now);
  const checks: GateCheck[] = [
    ...tuple.checks,
    guarded('kubevirt.deployed', () => checkKubeVirtDeployed(model.kubevirt)),
    guarded('kubevirt.emulation-consistent', () => checkEmulationConsistent(model.kubevirt, nodes)),
    guarded('kubevirt.confidential', () => checkConfidential(model.kubevirt, nodes)),
    guarded('kubevirt.placement', () => checkPlacement(model.kubevirt, nodes, config.prefix)),
    guarded('kubevirt.host-devices', () => checkHostDevices(model.kubevirt, hostDevices ?? unavailable(), nodes.filter((item) => canRunVms(item.readiness.state)).length)),
    guarded('nodes.min-ready', () => checkMinReady(nodes, config)),
    guarded('nodes.runtime', () => checkRuntime(nodes)),
    guarded('nodes.migration-pairs', () => checkMigrationPairs(plan, model.vmis)),
    guarded('nodes.kernel-userland', () => checkKernelUserland(nodes)),
    guarded('nodes.reports-fresh', () => checkReportsFresh(nodes, readiness)),
    guarded('cluster.privileged', () => checkPrivileged(nodes)),
  ];
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

function unavailable(): never {
  throw new Error('the host-device availability could not be computed');
}
