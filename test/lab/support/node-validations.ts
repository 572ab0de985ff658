/**
 * Writing NodeValidations the way the agent does, for tests that play an agent (or an attacker).
 * The CRD has a status subresource, so the API server drops `status` from a create and from any
 * write to the object itself: a report is created (metadata and spec), then its status is written
 * through `/status`. Every test that makes a report with a status goes through here.
 */
import { type CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../../../core/kube/names.ts';

export const NV = { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL } as const;

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

type Body = { metadata: { name: string } & Record<string, unknown>; status?: unknown } & Record<string, unknown>;

/**
 * Creates the NodeValidation, then, when `body` has a status, replaces the status through the
 * status subresource (a JSON Patch `add /status`, as the agent writes it). Returns the object as
 * the API server holds it afterwards.
 */
export async function createNodeValidation(custom: CustomObjectsApi, body: Body): Promise<Record<string, unknown>> {
  const { status, ...object } = body;
  const created = (await custom.createClusterCustomObject({ ...NV, body: object })) as Record<string, unknown>;
  if (status === undefined) return created;
  return writeNodeValidationStatus(custom, body.metadata.name, status);
}

/** Replaces a report's whole status through `/status` (JSON Patch `add`, as the agent does). */
export async function writeNodeValidationStatus(custom: CustomObjectsApi, name: string, status: unknown): Promise<Record<string, unknown>> {
  return (await custom.patchClusterCustomObjectStatus({ ...NV, name, body: [{ op: 'add', path: '/status', value: status }] }, jsonPatch)) as Record<string, unknown>;
}

/** Merges `status` into a report's status through `/status` (a merge patch: fields not named stay). */
export async function mergeNodeValidationStatus(custom: CustomObjectsApi, name: string, status: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await custom.patchClusterCustomObjectStatus({ ...NV, name, body: { status } }, mergePatch)) as Record<string, unknown>;
}
