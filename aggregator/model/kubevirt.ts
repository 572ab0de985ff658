import { parsePermittedHostDevices, type PermittedHostDevice } from './permitted-host-devices.ts';
import { parseWorkloadPlacement, type WorkloadPlacement } from './placement.ts';
import type { CustomResourceObservation } from './snapshot.ts';
import { boundedString, clip, isRecord, safely } from '../../core/untrusted.ts';

/**
 * The parts of the KubeVirt CR (kubevirt.io/v1) the gate reads. What virt-operator writes there
 * (KubeVirt v1.9.0, pkg/virt-operator/kubevirt.go and util/client.go): no status at all until it
 * first acts on the CR; then phase `Deploying` with Available=False (reason DeploymentInProgress),
 * Progressing=True and `targetKubeVirtVersion`; once every component is ready, phase `Deployed`,
 * Available=True (AllComponentsReady) and `observedKubeVirtVersion`, in the same update. The phase
 * stays `Deployed` through later updates: an upgrade shows as Available=True with Progressing=True
 * (UpdateInProgress), the old `observedKubeVirtVersion` and the new `targetKubeVirtVersion`; a failed
 * deployment as Available=False with reason DeploymentFailed.
 */
export interface KubeVirtCr {
  namespace: string | null;
  name: string | null;
  /** Deploying | Deployed | Deleting | Deleted, as written; null before virt-operator acts on the CR. */
  phase: string | null;
  observedKubeVirtVersion: string | null;
  /** The version virt-operator is deploying (status.targetKubeVirtVersion). */
  targetKubeVirtVersion: string | null;
  /** status of the `Available` condition ("True" | "False" | "Unknown"), null when absent. */
  available: string | null;
  /** The `Available` condition's reason and message, clipped; null when absent. */
  availableReason: string | null;
  availableMessage: string | null;
  /** status of the `Progressing` condition, null when absent. */
  progressing: string | null;
  /** spec.configuration.developerConfiguration.useEmulation; only a boolean true counts. */
  useEmulation: boolean;
  /** spec.configuration.developerConfiguration.featureGates as written (strings only, bounded): what the cluster asked for explicitly. */
  featureGates: string[];
  /** spec.configuration.evictionStrategy: the default of VMIs that set none; null when not set (KubeVirt's default is None). */
  evictionStrategy: string | null;
  /** spec.configuration.permittedHostDevices, narrowed (model/permitted-host-devices.ts); empty when none. */
  permittedHostDevices: PermittedHostDevice[];
  /** Whether spec.workloads.nodePlacement is set at all (unset: KubeVirt uses every node). */
  workloadsPlacementSet: boolean;
  workloadsPlacement: WorkloadPlacement;
}

export type KubeVirtSummary =
  | { state: 'crd-absent' }
  | { state: 'cr-absent' }
  | { state: 'unknown'; reason: string }
  /** `count` > 1 when several KubeVirt objects exist; `cr` is the one KubeVirt acts on (see pickActive). */
  | { state: 'present'; cr: KubeVirtCr; count: number };

/** Never throws: a malformed observation or object is reported, not fatal. */
export function summariseKubeVirt(observation: CustomResourceObservation): KubeVirtSummary {
  return safely(() => summarise(observation), { state: 'unknown', reason: 'the KubeVirt observation is unreadable' });
}

function summarise(observation: CustomResourceObservation): KubeVirtSummary {
  if (!isRecord(observation)) return { state: 'unknown', reason: 'the KubeVirt observation is malformed' };
  if (observation.state === 'crd-absent') return { state: 'crd-absent' };
  if (observation.state === 'unknown') return { state: 'unknown', reason: clip(String(observation.reason), 200) };
  if (observation.state !== 'listed' || !Array.isArray(observation.items)) return { state: 'unknown', reason: 'the KubeVirt observation is malformed' };
  // Array.from, not map: map keeps the holes of a sparse array.
  const crs = Array.from(observation.items.slice(0, 100), (raw) => narrowKubeVirt(raw));
  const cr = pickActive(crs);
  return cr ? { state: 'present', cr, count: observation.items.length } : { state: 'cr-absent' };
}

export function narrowKubeVirt(raw: unknown): KubeVirtCr {
  return safely(() => narrow(raw), {
    namespace: null,
    name: null,
    phase: null,
    observedKubeVirtVersion: null,
    targetKubeVirtVersion: null,
    available: null,
    availableReason: null,
    availableMessage: null,
    progressing: null,
    useEmulation: false,
    featureGates: [],
    evictionStrategy: null,
    permittedHostDevices: [],
    workloadsPlacementSet: false,
    workloadsPlacement: { state: 'invalid', reason: 'unreadable object' },
  });
}

function narrow(raw: unknown): KubeVirtCr {
  const object = isRecord(raw) ? raw : {};
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const spec = isRecord(object.spec) ? object.spec : {};
  const status = isRecord(object.status) ? object.status : {};
  const configuration = isRecord(spec.configuration) ? spec.configuration : {};
  const developer = isRecord(configuration.developerConfiguration) ? configuration.developerConfiguration : {};
  const workloads = isRecord(spec.workloads) ? spec.workloads : {};
  const available = condition(status.conditions, 'Available');
  return {
    namespace: boundedString(metadata.namespace, 253),
    name: boundedString(metadata.name, 253),
    // virt-operator omits an empty phase; an empty string reads as none.
    phase: boundedString(status.phase, 64) || null,
    observedKubeVirtVersion: boundedString(status.observedKubeVirtVersion, 256) || null,
    targetKubeVirtVersion: boundedString(status.targetKubeVirtVersion, 256) || null,
    available: available?.status ?? null,
    availableReason: available?.reason ?? null,
    availableMessage: available?.message ?? null,
    progressing: conditionStatus(status.conditions, 'Progressing'),
    useEmulation: developer.useEmulation === true,
    featureGates: Array.isArray(developer.featureGates) ? developer.featureGates.slice(0, 200).filter((gate): gate is string => typeof gate === 'string' && gate.length <= 128) : [],
    evictionStrategy: boundedString(configuration.evictionStrategy, 32),
    permittedHostDevices: parsePermittedHostDevices(configuration.permittedHostDevices),
    workloadsPlacementSet: workloads.nodePlacement !== undefined && workloads.nodePlacement !== null,
    workloadsPlacement: spec.workloads !== undefined && !isRecord(spec.workloads)
      ? { state: 'invalid', reason: 'spec.workloads is not an object' }
      : parseWorkloadPlacement(workloads.nodePlacement),
  };
}

/** The status of the first condition of a type, as written; null when there is none. */
export function conditionStatus(conditions: unknown, type: string): string | null {
  return condition(conditions, type)?.status ?? null;
}

/** The first condition of a type: its status as written, its reason and message clipped; null when there is none. */
function condition(conditions: unknown, type: string): { status: string | null; reason: string | null; message: string | null } | null {
  if (!Array.isArray(conditions)) return null;
  const found = conditions.slice(0, 100).find((entry) => isRecord(entry) && entry.type === type);
  if (!isRecord(found)) return null;
  const text = (value: unknown, max: number) => (typeof value === 'string' && value !== '' ? clip(value, max) : null);
  return { status: boundedString(found.status, 16), reason: text(found.reason, 64), message: text(found.message, 200) };
}

const PHASE_RANK: Record<string, number> = { Deployed: 0, Deploying: 1, Deleting: 3, Deleted: 4 };

/**
 * KubeVirt acts on one CR; extra ones are refused by virt-operator. Prefer the one that is deployed
 * (then deploying, then anything but deleting/deleted), ties broken by namespace/name, so the
 * choice does not depend on list order.
 */
export function pickActive(crs: KubeVirtCr[]): KubeVirtCr | null {
  const rank = (cr: KubeVirtCr) => PHASE_RANK[cr.phase ?? ''] ?? 2;
  const key = (cr: KubeVirtCr) => `${cr.namespace ?? ''}/${cr.name ?? ''}`;
  return [...crs].sort((a, b) => rank(a) - rank(b) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))[0] ?? null;
}
