import { conditionStatus } from './kubevirt.ts';
import type { CustomResourceObservation } from './snapshot.ts';
import { boundedString, clip, isRecord, safely } from '../../core/untrusted.ts';

/**
 * The parts of a KubeVirt VirtualMachineInstance (kubevirt.io/v1) the gate reads: where it runs,
 * whether it runs, and whether a drain would have to live-migrate it. The aggregator keeps only this
 * projection of each VMI in memory (`projectVmi`), never the whole object.
 */
export interface VmiModel {
  nodeName: string | null;
  /** status.phase as written: Pending | Scheduling | Scheduled | Running | Succeeded | Failed | WaitingForSync | Unknown. */
  phase: string | null;
  /**
   * spec.evictionStrategy: None | LiveMigrate | LiveMigrateIfPossible | External. virt-api's
   * mutating webhook fills it in from the KubeVirt CR's spec.configuration.evictionStrategy when a
   * VMI is created without one; a VMI has no status.evictionStrategy (KubeVirt v1.9.0).
   */
  evictionStrategy: string | null;
  /** status of the `LiveMigratable` condition ("True" | "False"), null when absent. */
  liveMigratable: string | null;
}

export type VmiSummary =
  | { state: 'crd-absent' }
  | { state: 'unknown'; reason: string }
  /** Running VMIs a drain must live-migrate (see `mustLiveMigrate`), per node name. */
  | { state: 'listed'; total: number; liveMigrateByNode: ReadonlyMap<string, number> };

/** Narrows one VMI to what the gate needs; null when it is not an object. Never throws. */
export function projectVmi(raw: unknown): VmiModel | null {
  return safely(() => {
    if (!isRecord(raw)) return null;
    const spec = isRecord(raw.spec) ? raw.spec : {};
    const status = isRecord(raw.status) ? raw.status : {};
    return {
      nodeName: boundedString(status.nodeName, 253),
      phase: boundedString(status.phase, 32),
      evictionStrategy: boundedString(spec.evictionStrategy, 32),
      liveMigratable: conditionStatus(status.conditions, 'LiveMigratable'),
    };
  }, null);
}

/**
 * Whether draining the VMI's node makes KubeVirt live-migrate it (virt-api's pod eviction
 * admitter, KubeVirt v1.9.0): the strategy is the VMI's own, else the cluster's; `LiveMigrate`
 * always (the eviction is refused until a migration moves the VM: a drain waits on it), and
 * `LiveMigrateIfPossible` when the VMI is live-migratable. `None` VMs are shut down, and `External`
 * ones are left to an external controller: neither waits for a migration target.
 */
export function mustLiveMigrate(vmi: VmiModel, clusterEvictionStrategy: string | null): boolean {
  const strategy = vmi.evictionStrategy ?? clusterEvictionStrategy;
  return strategy === 'LiveMigrate' || (strategy === 'LiveMigrateIfPossible' && vmi.liveMigratable === 'True');
}

/**
 * Counts the running VMIs a drain must live-migrate, per node. Items may be raw VMIs or projections.
 * `clusterEvictionStrategy` is the KubeVirt CR's spec.configuration.evictionStrategy (null: none set,
 * KubeVirt's default `None`). Never throws.
 */
export function summariseVmis(observation: CustomResourceObservation | undefined, clusterEvictionStrategy: string | null = null): VmiSummary {
  return safely(() => summarise(observation, clusterEvictionStrategy), { state: 'unknown', reason: 'the VirtualMachineInstance observation is unreadable' });
}

function isProjection(value: unknown): value is VmiModel {
  return isRecord(value) && 'evictionStrategy' in value && 'liveMigratable' in value && 'nodeName' in value && !('metadata' in value);
}

function summarise(observation: CustomResourceObservation | undefined, clusterEvictionStrategy: string | null): VmiSummary {
  if (observation === undefined) return { state: 'unknown', reason: 'VirtualMachineInstances are not watched' };
  if (!isRecord(observation)) return { state: 'unknown', reason: 'the VirtualMachineInstance observation is malformed' };
  if (observation.state === 'crd-absent') return { state: 'crd-absent' };
  if (observation.state === 'unknown') return { state: 'unknown', reason: clip(String(observation.reason), 200) };
  if (observation.state !== 'listed' || !Array.isArray(observation.items)) return { state: 'unknown', reason: 'the VirtualMachineInstance observation is malformed' };
  const byNode = new Map<string, number>();
  for (const item of Array.from(observation.items)) {
    const vmi = isProjection(item) ? item : projectVmi(item);
    if (vmi === null || vmi.nodeName === null || vmi.phase !== 'Running' || !mustLiveMigrate(vmi, clusterEvictionStrategy)) continue;
    byNode.set(vmi.nodeName, (byNode.get(vmi.nodeName) ?? 0) + 1);
  }
  return { state: 'listed', total: observation.items.length, liveMigrateByNode: byNode };
}
