import type { CustomResourceObservation } from './snapshot.ts';
import { boundedString, clip, isRecord, safely } from './untrusted.ts';

/**
 * The parts of a KubeVirt VirtualMachineInstance (kubevirt.io/v1) the gate reads: where it runs,
 * whether it runs, and whether a drain would live-migrate it. The aggregator keeps only this
 * projection of each VMI in memory (`projectVmi`), never the whole object.
 */
export interface VmiModel {
  nodeName: string | null;
  /** status.phase as written: Pending | Scheduling | Scheduled | Running | Succeeded | Failed | Unknown. */
  phase: string | null;
  /** status.evictionStrategy (the effective one, cluster default applied), else spec.evictionStrategy. */
  evictionStrategy: string | null;
}

export type VmiSummary =
  | { state: 'crd-absent' }
  | { state: 'unknown'; reason: string }
  /** Running VMIs with evictionStrategy LiveMigrate, per node name. */
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
      evictionStrategy: boundedString(status.evictionStrategy, 32) ?? boundedString(spec.evictionStrategy, 32),
    };
  }, null);
}

/** Counts the running LiveMigrate VMIs on each node. Items may be raw VMIs or projections. Never throws. */
export function summariseVmis(observation: CustomResourceObservation | undefined): VmiSummary {
  return safely(() => summarise(observation), { state: 'unknown', reason: 'the VirtualMachineInstance observation is unreadable' });
}

function isProjection(value: unknown): value is VmiModel {
  return isRecord(value) && 'evictionStrategy' in value && 'nodeName' in value && !('metadata' in value);
}

function summarise(observation: CustomResourceObservation | undefined): VmiSummary {
  if (observation === undefined) return { state: 'unknown', reason: 'VirtualMachineInstances are not watched' };
  if (!isRecord(observation)) return { state: 'unknown', reason: 'the VirtualMachineInstance observation is malformed' };
  if (observation.state === 'crd-absent') return { state: 'crd-absent' };
  if (observation.state === 'unknown') return { state: 'unknown', reason: clip(String(observation.reason), 200) };
  if (observation.state !== 'listed' || !Array.isArray(observation.items)) return { state: 'unknown', reason: 'the VirtualMachineInstance observation is malformed' };
  const byNode = new Map<string, number>();
  for (const item of Array.from(observation.items)) {
    const vmi = isProjection(item) ? item : projectVmi(item);
    if (vmi === null || vmi.nodeName === null || vmi.phase !== 'Running' || vmi.evictionStrategy !== 'LiveMigrate') continue;
    byNode.set(vmi.nodeName, (byNode.get(vmi.nodeName) ?? 0) + 1);
  }
  return { state: 'listed', total: observation.items.length, liveMigrateByNode: byNode };
}
