import { z } from 'zod';
import { DOCUMENT_KINDS } from '../../core/documents.ts';
import { VM_BOOT_REASONS, vmBootStepsSchema } from '../../core/report/vm-boot.ts';
import { aggregatorStatusSchema } from './aggregator-status.ts';
import { typeMetaShape } from './meta.ts';

/**
 * The VM canary's results per node class (`virtgate canary` writes each node's last result as
 * its report's status.vmBoot; aggregator/canary/ reads them): served at /api/v1/canary, shown on
 * the page and exported as the virtgate_canary_* metrics.
 */

/** One node's last canary result, as status.vmBoot says it (message clipped). */
export const canaryResultSchema = z.strictObject({
  node: z.string(),
  status: z.enum(['True', 'False']).describe('True: the VM booted and its guest printed the run\'s nonce.'),
  reason: z.enum(VM_BOOT_REASONS).describe('Booted, or the layer that stopped the VM.'),
  message: z.string(),
  /** When the run created the VMI. */
  runAt: z.string(),
  /** Seconds between runAt and the evaluation time. */
  ageSeconds: z.number(),
  seconds: vmBootStepsSchema.describe('Seconds from the VMI created to each step reached.'),
});
export type CanaryResult = z.infer<typeof canaryResultSchema>;

/** One node class: what the canary last saw on it. */
export const canaryClassSchema = z.strictObject({
  nodeClass: z.string().describe('vmBoot.nodeClass: CPU vendor and model, tier, kernel minor, platform, as the canary grouped them.'),
  nodes: z.int().min(0).describe('Nodes whose last canary result is for this class.'),
  booted: z.int().min(0).describe('Of those, the nodes whose last result is Booted.'),
  latest: canaryResultSchema.describe('The newest result of the class (latest runAt).'),
  failedRuns: z.int().min(0).describe("The newest result's classFailedRuns: runs in a row that booted no VM on this class (0 after a boot)."),
  lastSuccessAt: z.string().nullable().describe('The latest vmBoot.lastSuccessAt over the class; null when no VM ever booted on it.'),
  lastBoot: z
    .strictObject({ node: z.string(), runAt: z.string(), seconds: vmBootStepsSchema })
    .nullable()
    .describe('The newest result that is Booted, with its times (guestMarker: creation to the guest\'s nonce); null when none is.'),
});
export type CanaryClass = z.infer<typeof canaryClassSchema>;

/** Every class with a canary result, the worst first (most failed runs, then not booted, then by name). */
export const canarySummarySchema = z.strictObject({
  /** Nodes with a canary result (their own report's status.vmBoot). */
  nodes: z.int().min(0),
  classes: z.array(canaryClassSchema),
});
export type CanarySummary = z.infer<typeof canarySummarySchema>;

/** GET /api/v1/canary: the canary's results per class, and the aggregator's state. */
export const canaryResponseSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.apiCanary),
  evaluatedAt: z.string(),
  ...canarySummarySchema.shape,
  aggregator: aggregatorStatusSchema,
});
export type CanaryResponse = z.infer<typeof canaryResponseSchema>;
