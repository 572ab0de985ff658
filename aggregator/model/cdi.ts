import type { CustomResourceObservation } from './snapshot.ts';
import { boundedString, clip, isRecord, safely } from '../../core/untrusted.ts';

/** The parts of the CDI CR (cdi.kubevirt.io/v1beta1, cluster-scoped) the gate reads. */
export interface CdiCr {
  name: string | null;
  phase: string | null;
  observedVersion: string | null;
}

export type CdiSummary =
  | { state: 'crd-absent' }
  | { state: 'cr-absent' }
  | { state: 'unknown'; reason: string }
  | { state: 'present'; cr: CdiCr; count: number };

/** Never throws. With several CDI objects, the first by name is used (CDI itself allows one). */
export function summariseCdi(observation: CustomResourceObservation): CdiSummary {
  return safely(() => summarise(observation), { state: 'unknown', reason: 'the CDI observation is unreadable' });
}

function summarise(observation: CustomResourceObservation): CdiSummary {
  if (!isRecord(observation)) return { state: 'unknown', reason: 'the CDI observation is malformed' };
  if (observation.state === 'crd-absent') return { state: 'crd-absent' };
  if (observation.state === 'unknown') return { state: 'unknown', reason: clip(String(observation.reason), 200) };
  if (observation.state !== 'listed' || !Array.isArray(observation.items)) return { state: 'unknown', reason: 'the CDI observation is malformed' };
  // Array.from, not map: map keeps the holes of a sparse array, and a hole is not a CR.
  const crs = Array.from(observation.items.slice(0, 100), (raw) => safely(() => narrow(raw), { name: null, phase: null, observedVersion: null }));
  const cr = crs.sort((a, b) => ((a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : 0))[0];
  return cr ? { state: 'present', cr, count: observation.items.length } : { state: 'cr-absent' };
}

function narrow(raw: unknown): CdiCr {
  const object = isRecord(raw) ? raw : {};
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const status = isRecord(object.status) ? object.status : {};
  return {
    name: boundedString(metadata.name, 253),
    phase: boundedString(status.phase, 64),
    observedVersion: boundedString(status.observedVersion, 256),
  };
}
