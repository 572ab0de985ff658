/**
 * Writes a report's status.vmBoot as `virtgate canary` does: one JSON Patch `add /status/vmBoot`
 * through the status subresource, leaving the agent's keys alone.
 */
import { CustomObjectsApi, type KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { VmBoot } from '../../../core/report/schema.ts';
import { NV } from './node-validations.ts';

const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

export async function writeVmBoot(kc: KubeConfig, name: string, vmBoot: VmBoot): Promise<void> {
  await kc.makeApiClient(CustomObjectsApi).patchClusterCustomObjectStatus({ ...NV, name, body: [{ op: 'add', path: '/status/vmBoot', value: vmBoot }] }, jsonPatch);
}
