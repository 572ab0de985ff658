/** KubeVirt's `nodePlacement` (nodeSelector, affinity, tolerations), as the e2e tests and the demo read it. */
import { z } from 'zod';

const tolerationSchema = z.object({
  key: z.string().optional(),
  operator: z.string().optional(),
  value: z.string().optional(),
  effect: z.string().optional(),
  tolerationSeconds: z.number().optional(),
});

export const nodePlacementSchema = z.object({
  nodeSelector: z.record(z.string(), z.string()).default({}),
  tolerations: z.array(tolerationSchema).default([]),
  // Kept as written: the tests hand it to the pod unchanged.
  affinity: z.record(z.string(), z.unknown()).optional(),
});

export type NodePlacement = z.infer<typeof nodePlacementSchema>;
