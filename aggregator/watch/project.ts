import { isRecord, nonEmptyString } from '../../core/json.ts';

/**
 * Small readings of watched objects that are not narrowed by the gate's model: whether a CRD is
 * established, and an object's store key. Nodes and NodeValidations are narrowed on arrival by
 * the model itself (keep.ts). Neither function throws.
 */

/** Whether a CustomResourceDefinition exists, is established, and which versions it serves. */
export interface CrdInfo {
  name: string;
  established: boolean;
  served: string[];
}

export function projectCrd(raw: unknown): CrdInfo | null {
  try {
    if (!isRecord(raw) || !isRecord(raw.metadata) || typeof raw.metadata.name !== 'string') return null;
    const spec = isRecord(raw.spec) ? raw.spec : {};
    const status = isRecord(raw.status) ? raw.status : {};
    const versions = Array.isArray(spec.versions) ? spec.versions : [];
    const conditions = Array.isArray(status.conditions) ? status.conditions : [];
    return {
      name: raw.metadata.name,
      established: conditions.some((condition) => isRecord(condition) && condition.type === 'Established' && condition.status === 'True'),
      served: versions.filter((version) => isRecord(version) && version.served === true && typeof version.name === 'string').map((version) => String(version.name)),
    };
  } catch {
    return null;
  }
}

/**
 * What a CRD's state means for reading its objects: absent (not installed), or why its objects
 * cannot be listed although it exists; null when it is established and serves `version`, so they
 * can. The aggregator's watch and `virtgate gate`'s one-shot read both say it this way.
 */
export function crdObservation(crd: string, group: string, version: string, info: CrdInfo | null): { state: 'crd-absent' } | { state: 'unknown'; reason: string } | null {
  if (info === null) return { state: 'crd-absent' };
  if (!info.served.includes(version)) {
    const served = info.served.length > 0 ? `it serves ${info.served.slice(0, 5).join(', ')}` : 'it serves no version';
    return { state: 'unknown', reason: `CRD ${crd} exists but does not serve ${group}/${version} (${served}); virtgate reads ${group}/${version}` };
  }
  if (!info.established) return { state: 'unknown', reason: `CRD ${crd} exists but is not established yet (the API server has not accepted it); see its status.conditions` };
  return null;
}

/** `namespace/name` (or `name`); null for an object without a name, which cannot be tracked. */
export function objectKey(raw: unknown): string | null {
  if (!isRecord(raw) || !isRecord(raw.metadata)) return null;
  const name = nonEmptyString(raw.metadata.name);
  const namespace = nonEmptyString(raw.metadata.namespace);
  if (name === undefined) return null;
  return namespace !== undefined ? `${namespace}/${name}` : name;
}
