/** Reads back the parts of a KubeVirt CR that decide where virt-handler, and so VMs, may go. */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { z } from 'zod';
import { type NodePlacement, nodePlacementSchema } from './node-placement.ts';

/** The parts of a KubeVirt CR that decide where VMs may go: virt-handler's placement, and emulation. */
export interface KubeVirtView {
  placement: NodePlacement;
  useEmulation: boolean;
}

const kubevirtSchema = z.object({
  spec: z
    .object({
      configuration: z.object({ developerConfiguration: z.object({ useEmulation: z.boolean().optional() }).optional() }).optional(),
      workloads: z.object({ nodePlacement: nodePlacementSchema.optional() }).optional(),
    })
    .default({}),
});

export async function readKubeVirt(kc: KubeConfig, namespace: string, name: string): Promise<KubeVirtView> {
  const raw = await kc.makeApiClient(CustomObjectsApi).getNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', namespace, plural: 'kubevirts', name });
  const { spec } = kubevirtSchema.parse(raw);
  return {
    placement: spec.workloads?.nodePlacement ?? nodePlacementSchema.parse({}),
    useEmulation: spec.configuration?.developerConfiguration?.useEmulation === true,
  };
}
