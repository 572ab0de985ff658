import { z } from 'zod';
import { API_GROUP, API_VERSION, NODE_VALIDATION_KIND } from '../kube/names.ts';
import { MAX_FEATURE_NAME, MAX_GUEST_FEATURES } from '../checks/host/parse/guest-features.ts';
import { inventorySchema } from '../inventory/schema.ts';
import { hostDevicesSchema } from './host-devices.ts';
import { vmBootStepsSchema, VM_BOOT_REASONS } from './vm-boot.ts';
import { CHECK_STATUSES } from '../checks/outcome.ts';
import { CONFIDENTIAL_KINDS, MAX_KIND_REASON } from '../checks/host/confidential-kinds.ts';
import { type CheckOutcome, TIERS } from '../checks/verdict.ts';
import { CPU_VENDORS } from '../checks/host/parse/cpuinfo.ts';
import { CLOUDS, PLATFORM_KINDS } from '../checks/host/platform-class.ts';

// The canary's reasons and steps live in their own module (no Node imports) so the aggregator's
// page can read them; they stay part of this schema's exports.
export { VM_BOOT_REASONS, type VmBootReason, vmBootStepsSchema } from './vm-boot.ts';

/**
 * The NodeValidation report, once. Everything else is derived from these schemas:
 *  - the types the agent writes (`NodeValidation`, `NodeValidationStatus`, `TaintReport`);
 *  - the CRD's openAPIV3Schema in the chart (`npm run generate:crd`, scripts/generate-crd.ts, from
 *    `storedNodeValidationSchema`); a unit test fails when the chart's copy differs;
 *  - the one reader, `readReport()` (read.ts), which every program that reads a report uses: it
 *    reads each field with the field's schema here and so applies the same limits as the API server.
 * Every field of `status` is declared here, and each fact is stored once. The API server prunes
 * every other key; only a check's `observed` keeps what its probe saw
 * (`x-kubernetes-preserve-unknown-fields`), as diagnostics for people: no program reads it
 * (core/report/readers.test.ts). zod's own parse strips unknown keys too, which is what a reader wants.
 */

const PRESERVE_UNKNOWN_FIELDS = { 'x-kubernetes-preserve-unknown-fields': true } as const;

/** Kubernetes object names are DNS subdomains: at most 253 characters. */
export const objectNameSchema = z.string().min(1).max(253);

/** What toISOString() writes; anything else is not a time a reader can compare. */
const timestampSchema = z.iso.datetime({ offset: true });

export const TAINT_POLICIES = ['off', 'not-ready', 'bootstrap'] as const;

/** A report carries at most this many checks (the API server rejects more). */
export const MAX_REPORT_CHECKS = 64;

/** What the taint policy did on this node at the last publish. */
export const taintReportSchema = z.object({
  policy: z.enum(TAINT_POLICIES),
  applied: z.boolean().describe("Whether virtgate's not-ready taint is on the node."),
  refused: z.string().optional().describe('Set when the guard refused to taint: the share of the pool already tainted was too high.'),
});

/** One confidential-guest kind on a node: whether a guest of it can start, else why not. */
export const confidentialKindSchema = z.object({
  available: z.boolean(),
  reason: z.string().max(MAX_KIND_REASON).optional().describe('Why a guest of this kind cannot start here (absent when it can).'),
  asidsFree: z.int().min(0).optional().describe('ASIDs left for this kind (misc cgroup), where the kernel counts them.'),
});

/** Per kind (SEV, SEV-ES, SEV-SNP, TDX), what the confidential check read; the gate and the page read it. */
export const confidentialReportSchema = z.object(Object.fromEntries(CONFIDENTIAL_KINDS.map((kind) => [kind, confidentialKindSchema])) as Record<(typeof CONFIDENTIAL_KINDS)[number], typeof confidentialKindSchema>);

/**
 * The VM canary's last result on this node (`virtgate canary`, docs/canary.md). Written only by
 * the canary, as its own field of `status` (the agent writes the rest of status key by key and
 * never this one; admission policies hold each to its part), so neither overwrites the other.
 */
export const vmBootSchema = z.object({
  status: z.enum(['True', 'False']).describe('True: the last canary VM scheduled here booted and printed its nonce.'),
  reason: z.enum(VM_BOOT_REASONS).describe('Booted, or the layer that stopped the VM.'),
  message: z.string().max(4096).describe('What that layer said: the scheduler, the launcher, KubeVirt, or the console tail.'),
  runAt: timestampSchema.describe('When the run created the VMI.'),
  lastTransitionTime: timestampSchema.describe('When status last changed on this node.'),
  lastSuccessAt: timestampSchema.optional().describe('When a canary VM last booted on this node.'),
  nodeClass: z.string().min(1).max(253).describe('The node class the run picked this node for (CPU vendor and model, tier, kernel minor, platform).'),
  classFailedRuns: z.int().min(0).describe('Runs in a row that booted no VM on this class, counting this one (0 after a boot).'),
  seconds: vmBootStepsSchema.describe('Seconds from the VMI created to each step reached.'),
  canaryVersion: z.string().max(64),
});
export type VmBoot = z.infer<typeof vmBootSchema>;

/** The platform check's reading: bare metal or a VM, and which cloud or hypervisor (the canary's node classes). */
export const platformReportSchema = z.object({
  kind: z.enum(PLATFORM_KINDS),
  cloud: z.enum(CLOUDS).optional().describe('The cloud, when DMI names one.'),
  hypervisor: z.string().max(128).optional().describe('The hypervisor, when the host is a VM and something names it.'),
});
export type PlatformReport = z.infer<typeof platformReportSchema>;

/**
 * One check result. The id is any string, not core's CheckId: newer agents may add checks, and
 * the API server keeps whatever a node writes (readers bound it themselves). `observed` (what the
 * probe saw, any shape) is kept for people; no program reads it.
 */
export const reportCheckSchema = z
  .object({
    id: z.string(),
    status: z.enum(CHECK_STATUSES),
    message: z.string(),
    hint: z.string().optional(),
  })
  .meta(PRESERVE_UNKNOWN_FIELDS);

/** metav1.Condition's status values. */
export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;

/** The NodeValidation condition that mirrors the verdict (what `kubectl wait --for=condition=Ready` reads). */
export const READY_CONDITION = 'Ready';

/**
 * One condition in the shape of metav1.Condition (the same fields, limits and reason pattern as
 * Kubernetes' own types), so kubectl wait, kstatus and Argo CD read it as they read any other.
 */
export const conditionSchema = z.object({
  type: z.string().min(1).max(316).describe('The condition: Ready mirrors the verdict.'),
  status: z.enum(CONDITION_STATUSES).describe('True, False or Unknown.'),
  observedGeneration: z.int().min(0).optional().describe('metadata.generation this condition was set from.'),
  lastTransitionTime: timestampSchema.describe('When status last changed.'),
  reason: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/)
    .describe('Why, in CamelCase: the same reason as the Node\'s VirtualizationReady condition.'),
  message: z.string().max(32768).describe('Why, for people.'),
});

/** Conditions are a map keyed by type (server-side apply merges them by type). */
const conditionsSchema = z
  .array(conditionSchema)
  .max(8)
  .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
  .describe('Conditions in the metav1.Condition shape; Ready is True when the node may run VMs.');

const statusShape = {
  conditions: conditionsSchema,
  observedGeneration: z.int().min(0).describe('metadata.generation of the NodeValidation this status was written for.'),
  ready: z.boolean().describe('The node may run VMs under the policy (the <prefix>/ready label and the Ready condition say the same).'),
  tier: z.enum(TIERS).describe('How VMs would run here: hardware (KVM), emulation (QEMU TCG) or none.'),
  conclusive: z.boolean().describe('False when a check that decides the tier ended in error: the tier is a guess.'),
  kvm: z.enum(CHECK_STATUSES).describe('Status of dev.kvm, for kubectl get.'),
  kernel: z.string().max(32).describe('Kernel major.minor, for kubectl get.'),
  cpuVendor: z.enum(CPU_VENDORS).optional().describe("The CPU's vendor (absent when cpuinfo could not be read)."),
  platform: platformReportSchema.optional().describe('Bare metal or a VM, and which cloud or hypervisor: the platform check\'s reading (absent from agents before it was declared).'),
  checks: z.array(reportCheckSchema).max(MAX_REPORT_CHECKS).describe('Every check in registry order: id, status, message, hint, and what its probe observed (for people; no program reads observed).'),
  agentVersion: z.string().max(64).describe('The version of the agent that wrote this report.'),
  probedAt: timestampSchema.describe('When the probes last ran.'),
  lastTransitionAt: timestampSchema.describe('When ready or tier last changed.'),
  heartbeatAt: timestampSchema.describe('Refreshed every few minutes: the aggregator calls a report stale when this is old.'),
  taint: taintReportSchema.describe('The taint policy, and whether the not-ready taint is on the node or why the guard refused it.'),
  confidential: confidentialReportSchema
    .optional()
    .describe('Confidential guests per kind (sev, sev-es, sev-snp, tdx): available, or the reason not; absent when the host could not tell or is not x86.'),
  cpuFeatures: z
    .array(z.string().min(1).max(MAX_FEATURE_NAME))
    .max(MAX_GUEST_FEATURES)
    .optional()
    .describe("The host's guest-relevant CPU features, sorted: a VM can live-migrate only to a node that has all of them (absent when cpuinfo could not be read)."),
  inventory: inventorySchema.optional().describe('The hardware inventory, read from the kernel files /proc/cpuinfo, /proc/meminfo, DMI and sysfs topology, collected once at agent start; informational only.'),
  hostDevices: hostDevicesSchema
    .optional()
    .describe('Device passthrough: PCI functions counted per vendor:device and state, and mediated-device types (absent where the host has no PCI sysfs).'),
  vmBoot: vmBootSchema.optional().describe("The VM canary's last result here (absent: the canary is off or never ran here). Written only by the canary."),
};

/**
 * The per-node report as the agent writes it, in `status` of a cluster-scoped NodeValidation named
 * after the node. The CRD has a status subresource: the agent creates the object (metadata and
 * spec), then writes `status` through `/status`, so a heartbeat never changes metadata.generation.
 * The raw host facts are not stored: what programs need of them is a declared field above.
 */
export const nodeValidationStatusSchema = z.object(statusShape);

export const ownerReferenceSchema = z.object({
  apiVersion: z.string().max(253),
  kind: z.string().max(63),
  name: z.string().max(253),
  uid: z.string().max(128),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});

/** The metadata the agent sets or reads back; the API server validates metadata itself. */
const metadataSchema = z.object({
  name: objectNameSchema,
  resourceVersion: z.string().optional(),
  generation: z.int().optional(),
  uid: z.string().optional(),
  creationTimestamp: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  ownerReferences: z.array(ownerReferenceSchema).optional(),
});

export const nodeValidationSpecSchema = z
  .object({ nodeName: objectNameSchema.describe('The Node this report is about; its owner reference must name the same Node.') })
  .meta({ 'x-kubernetes-validations': [{ rule: 'self.nodeName == oldSelf.nodeName', message: 'nodeName is immutable' }] });

export const nodeValidationSchema = z.object({
  apiVersion: z.literal(`${API_GROUP}/${API_VERSION}` as const),
  kind: z.literal(NODE_VALIDATION_KIND),
  metadata: metadataSchema,
  spec: nodeValidationSpecSchema,
  status: nodeValidationStatusSchema.optional(),
});

/**
 * What the API server stores (the CRD's openAPIV3Schema): the same fields and limits, but every
 * status field optional, the taint's too. A report may be written in parts, by an older or newer
 * agent, or by something else with the agent's rights; readers narrow it field by field and say
 * what is missing, which a rejected write could not.
 */
export const storedNodeValidationSchema = nodeValidationSchema.extend({
  status: nodeValidationStatusSchema
    .extend({ taint: taintReportSchema.partial() })
    .partial()
    .meta({ description: "The report, written by the node's virtgate agent." })
    .optional(),
});

export type TaintReport = z.infer<typeof taintReportSchema>;
export type NodeValidationCondition = z.infer<typeof conditionSchema>;

/** The status as the agent builds it: checks typed by the code that produces them. */
export type NodeValidationStatus = Omit<z.infer<typeof nodeValidationStatusSchema>, 'checks'> & {
  checks: CheckOutcome[];
};

export type NodeValidation = Omit<z.infer<typeof nodeValidationSchema>, 'status'> & { status?: NodeValidationStatus };
