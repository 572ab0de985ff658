import { isRecord, stringMap } from '../model/untrusted.ts';

/**
 * What the informers take from each object: only the fields the gate reads (aggregator/model/),
 * bounded, in the API's own JSON shape; they then keep it narrowed (keep.ts). A real Node carries
 * images, managedFields and conditions with long messages; a NodeValidation carries host facts and
 * virt-host-validate lines. Dropping those on arrival keeps 5,000 nodes well inside the memory
 * budget and makes kubelet heartbeat updates (which change nothing here) compare equal, so they
 * cause no recompute.
 *
 * The gate must give the same answer for an object and its projection, hostile objects included
 * (project.test.ts checks this property). So a projection never turns an invalid value into a
 * valid one: strings are cut just past the gate's own length limit (still too long for it), other
 * scalars are kept, and objects or arrays in a scalar's place become empty ones of the same kind.
 * Projections never throw.
 */

/** A string cut to one character past `max`: the gate treats it exactly as the full one. */
function scalar(value: unknown, max: number): unknown {
  if (typeof value === 'string') return value.length > max ? value.slice(0, max + 1) : value;
  if (Array.isArray(value)) return [];
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) return {};
  return value;
}

function list<T>(value: unknown, max: number, item: (entry: Record<string, unknown>) => T): unknown {
  if (!Array.isArray(value)) return scalar(value, 0);
  // Array.from, not map: a sparse array's holes become undefined, as the gate reads them.
  return Array.from(value.slice(0, max), (entry: unknown) => (isRecord(entry) ? item(entry) : scalar(entry, 0)));
}

function record(value: unknown, build: (object: Record<string, unknown>) => Record<string, unknown>): unknown {
  return isRecord(value) ? build(value) : scalar(value, 0);
}

/** Client-node's typed list returns Dates; watch events carry strings. Both become the string. */
function timestamp(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return scalar(value, 64);
}

/** A Node, as parseNode (model/node.ts) reads it. */
export function projectNode(raw: unknown): unknown {
  try {
    return record(raw, (node) => ({
      metadata: record(node.metadata, (metadata) => ({
        name: scalar(metadata.name, 253),
        uid: scalar(metadata.uid, 128),
        labels: stringMap(metadata.labels),
        creationTimestamp: timestamp(metadata.creationTimestamp),
      })),
      spec: record(node.spec, (spec) => ({
        taints: list(spec.taints, 1000, (taint) => ({ key: scalar(taint.key, 317), value: scalar(taint.value, 63), effect: scalar(taint.effect, 32) })),
      })),
      status: record(node.status, (status) => ({
        nodeInfo: record(status.nodeInfo, (info) => ({
          containerRuntimeVersion: scalar(info.containerRuntimeVersion, 1024),
          kernelVersion: scalar(info.kernelVersion, 1024),
          osImage: scalar(info.osImage, 1024),
        })),
        conditions: list(status.conditions, 1000, (condition) => ({
          type: scalar(condition.type, 316),
          status: scalar(condition.status, 16),
          reason: scalar(condition.reason, 1024),
        })),
      })),
    }));
  } catch {
    return {};
  }
}

/** A NodeValidation, as parseNodeValidation (model/report.ts) reads it. */
export function projectReport(raw: unknown): unknown {
  try {
    return record(raw, (report) => ({
      metadata: record(report.metadata, (metadata) => ({
        name: scalar(metadata.name, 253),
        ownerReferences: list(metadata.ownerReferences, 20, (owner) => ({
          apiVersion: scalar(owner.apiVersion, 253),
          kind: scalar(owner.kind, 63),
          name: scalar(owner.name, 253),
          uid: scalar(owner.uid, 128),
        })),
      })),
      spec: record(report.spec, (spec) => ({ nodeName: scalar(spec.nodeName, 253) })),
      status: record(report.status, (status) => ({
        ready: scalar(status.ready, 16),
        tier: scalar(status.tier, 16),
        conclusive: scalar(status.conclusive, 16),
        kernel: scalar(status.kernel, 64),
        agentVersion: scalar(status.agentVersion, 64),
        // Long enough for any ISO time the schema accepts; cut after that, it is not a time.
        heartbeatAt: scalar(status.heartbeatAt, 1024),
        probedAt: scalar(status.probedAt, 64),
        checks: list(status.checks, 100, (check) => ({
          id: scalar(check.id, 63),
          status: scalar(check.status, 16),
          // The gate clips messages to 300 characters; anything but a string reads as ''.
          message: typeof check.message === 'string' ? scalar(check.message, 300) : null,
        })),
        facts: record(status.facts, (facts) => ({
          cpu: record(facts.cpu, (cpu) => ({
            state: scalar(cpu.state, 16),
            value: record(cpu.value, (value) => ({ vendor: scalar(value.vendor, 16) })),
          })),
        })),
      })),
    }));
  } catch {
    return {};
  }
}

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

/** `namespace/name` (or `name`); null for an object without a name, which cannot be tracked. */
export function objectKey(raw: unknown): string | null {
  if (!isRecord(raw) || !isRecord(raw.metadata)) return null;
  const { name, namespace } = raw.metadata;
  if (typeof name !== 'string' || name === '') return null;
  return typeof namespace === 'string' && namespace !== '' ? `${namespace}/${name}` : name;
}
