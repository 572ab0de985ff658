import { z } from 'zod';
import { typeMetaShape } from '../aggregator/documents/meta.ts';
import { nodeStateSchema } from '../aggregator/documents/readiness.ts';
import { DOCUMENT_KINDS } from '../core/documents.ts';
import { REQUIREMENT_SOURCES } from './requirements.ts';

/** `virtgate explain --json`: the one schema of the document; its type and docs/api's JSON Schema come from it. */

const failureSchema = z.strictObject({
  requirement: z.string().describe('The id of the requirement the node fails (see requirements).'),
  cause: z.string().describe('Why, the same words for every node that fails the same way.'),
  detail: z.string().describe("This node's own figures and readings."),
  remedy: z.string().nullable().describe('What to do, when virtgate knows (its check\'s hint).'),
});

const groupSchema = z.strictObject({
  requirement: z.string(),
  cause: z.string(),
  count: z.number().int().describe('Nodes failing first on this requirement, for this cause.'),
  nodes: z.array(z.string()).describe('The first of them by name (at most 10).'),
  example: z.strictObject({ node: z.string(), detail: z.string() }),
  remedy: z.string().nullable(),
});

const placementSchema = z.strictObject({
  candidates: z.number().int().describe('Nodes judged.'),
  fitting: z.array(z.string()).describe('Nodes that meet every requirement, by name.'),
  groups: z.array(groupSchema).describe('The other nodes, grouped by the first requirement they fail and its cause, largest group first.'),
  nodes: z
    .array(
      z.strictObject({
        name: z.string(),
        fits: z.boolean(),
        virtgate: z.strictObject({ state: nodeStateSchema, reason: z.string() }).describe("virtgate's own readiness of the node."),
        failures: z.array(failureSchema).describe('Every requirement the node fails, in requirement order.'),
      }),
    )
    .describe('Every node judged, by name (virtgate explain always lists them; empty when only the groups were asked for).'),
});

export const explainResultSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.explain),
  vmi: z.strictObject({
    kind: z.enum(['VirtualMachineInstance', 'VirtualMachine']),
    name: z.string(),
    namespace: z.string(),
    source: z.string().describe('Where it was read: the cluster, or a file.'),
    phase: z.string().nullable(),
    nodeName: z.string().nullable().describe('The node it runs on, when it runs.'),
  }),
  requirements: z
    .array(z.strictObject({ id: z.string(), source: z.enum(REQUIREMENT_SOURCES), text: z.string(), because: z.string() }))
    .describe("The virt-launcher pod's requirements as KubeVirt v1.9.0 renders them, in the order nodes are judged."),
  notes: z.array(z.string()).describe('What was assumed or not judged.'),
  placement: placementSchema.describe('Where the VMI could start now.'),
  migration: placementSchema
    .extend({ from: z.string() })
    .nullable()
    .describe('For a VMI running on a node: where it could live-migrate to (the other nodes, with the source host\'s CPU model for host-model).'),
  result: z.enum(['can-run', 'cannot-run']).describe('can-run: at least one node meets every requirement.'),
  exitCode: z.union([z.literal(0), z.literal(1)]),
});

export type ExplainResult = z.infer<typeof explainResultSchema>;
export type Placement = z.infer<typeof placementSchema>;
