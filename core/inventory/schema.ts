import { z } from 'zod';

/**
 * The hardware inventory: what the machine is, from the kernel's files (collect.ts). It describes the machine
 * whose files were read (the agent's: its node, under its host root) and never decides a verdict. One flat object (not a union) so that the
 * NodeValidation CRD generated from it stays a plain structural schema.
 */
const text = z.string().max(128);

export const inventorySchema = z.object({
  collected: z.boolean().describe('False when the inventory was not collected; `reason` says why.'),
  reason: z.string().max(256).optional(),
  system: z.object({ manufacturer: text, model: text }).optional(),
  cpu: z
    .object({
      brand: text,
      sockets: z.number().int().min(0).max(4096),
      cores: z.number().int().min(0).max(1_048_576).describe('Physical cores, all sockets.'),
      threads: z.number().int().min(0).max(1_048_576).describe('Logical processors, all sockets.'),
      baseSpeedGHz: z.number().min(0).max(100).optional().describe('Absent when the CPU does not say.'),
    })
    .optional(),
  memoryTotalBytes: z.number().int().min(0).optional(),
});

export type Inventory = z.infer<typeof inventorySchema>;

export function notCollected(reason: string): Inventory {
  return { collected: false, reason: reason.slice(0, 256) };
}
