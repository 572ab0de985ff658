import { z } from 'zod';
import type { CpuVendor } from '../checks/host/parse/cpuinfo.ts';
import {
  MAX_REPORT_CHECKS,
  nodeValidationSpecSchema,
  nodeValidationStatusSchema,
  objectNameSchema,
  ownerReferenceSchema,
  type PlatformReport,
  reportCheckSchema,
  type TaintReport,
  type VmBoot,
  vmBootSchema,
} from './schema.ts';
import type { CheckStatus } from '../checks/outcome.ts';
import type { Inventory } from '../inventory/schema.ts';
import type { HostDevices } from './host-devices.ts';
import type { ConfidentialSummary } from '../checks/families/confidential.ts';
import type { Tier } from '../checks/verdict.ts';
import { clip, firstIssue, isRecord, listOf, safely } from '../untrusted.ts';

/**
 * The one reader of a NodeValidation: the aggregator (readiness, gate, page, metrics) and the VM
 * canary read every report through `readReport`. Every field is untrusted: the agent on a node
 * writes it, and a compromised node could write anything. `readReport` narrows it field by field
 * with the report schema (schema.ts), so it applies the API server's limits, and never throws; a
 * report without the fields readiness needs is `invalid` with the field it could not read. Whether
 * the report really belongs to its node (name, spec.nodeName, ownerReference) is decided by the
 * aggregator, with the Node at hand (aggregator/readiness/attribution.ts).
 */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string | null;
}

export interface ReportCheck {
  /** A check id as the agent wrote it (not narrowed to core's CheckId: newer agents may add ids). */
  id: string;
  status: CheckStatus;
  message: string;
  /** The check's remedy; read only for `readReport(raw, { hints: true })` (`virtgate explain`), which the aggregator does not hold for every node. */
  hint?: string;
}

export interface ReadOptions {
  /** Keep each check's hint (clipped): for a one-shot reader that shows remedies. */
  hints?: boolean;
}

export interface NodeReport {
  /** metadata.name: must equal spec.nodeName and the owning Node's name. */
  name: string;
  nodeName: string;
  ownerReferences: OwnerReference[];
  ready: boolean;
  tier: Tier;
  conclusive: boolean | null;
  kernel: string | null;
  agentVersion: string | null;
  heartbeatAt: string;
  /** heartbeatAt in epoch milliseconds. */
  heartbeatMs: number;
  probedAt: string | null;
  checks: ReportCheck[];
  /** status.cpuVendor; null when absent (cpuinfo unread, or an agent before the field) or malformed. */
  cpuVendor: CpuVendor | null;
  /** status.platform (bare metal or a VM, which cloud or hypervisor); null when absent or malformed. */
  platform: PlatformReport | null;
  /** status.cpuFeatures (sorted guest-relevant CPU features); null when absent or malformed. */
  cpuFeatures: string[] | null;
  /** status.inventory when it was collected and fits the schema; informational only. */
  inventory: Inventory | null;
  /** status.hostDevices (the passthrough inventory) when it fits the schema; null from agents without it. */
  hostDevices: HostDevices | null;
  /** status.confidential (per kind: available, or why not); null when absent or malformed. */
  confidential: ConfidentialSummary | null;
  /** status.taint, what the taint policy did at the last publish; null when absent or malformed. */
  taint: TaintReport | null;
  /** status.vmBoot, the VM canary's last result here (written by the canary, never the agent); null when absent or malformed. */
  vmBoot: VmBoot | null;
  /**
   * The status fields that are present but could not be read (malformed, or from another version
   * of the schema), e.g. `status.kernel`: each is null above. Empty for a report as the agent writes it.
   */
  unreadFields: readonly string[];
}

export type ReportParse =
  | { state: 'valid'; report: NodeReport }
  /** `name` is metadata.name when it could be read, so the node of that name can say why. */
  | { state: 'invalid'; name: string | null; reason: string };

const statusFields = nodeValidationStatusSchema.shape;
const ownerFields = ownerReferenceSchema.shape;

/** The fields readiness cannot do without: a report missing any of them is invalid. */
const coreSchema = z.object({
  spec: nodeValidationSpecSchema,
  status: nodeValidationStatusSchema.pick({ ready: true, tier: true, heartbeatAt: true }),
});

/** Reading rules of the gate's own, beyond what the API server enforces (the CRD keeps any id). */
const MAX_CHECK_ID = 63;
const MAX_OWNER_REFERENCES = 20;
const MAX_MESSAGE = 300;

/** An owner reference without a uid is kept (uid null): attribution then says so. */
const ownerReferenceReading = z.object({
  apiVersion: ownerFields.apiVersion,
  kind: ownerFields.kind,
  name: ownerFields.name,
  uid: ownerFields.uid.nullish(),
});

/** A check whose message is not a string still counts, with an empty message. */
const checkReading = z.object({
  id: reportCheckSchema.shape.id.min(1).max(MAX_CHECK_ID),
  status: reportCheckSchema.shape.status,
  message: reportCheckSchema.shape.message.catch(''),
  hint: z.string().optional().catch(undefined),
});

/** Shared by every report read whole: most reports, on every node. */
const NONE_UNREAD: readonly string[] = Object.freeze([]);

const collectedOrNull = (inventory: Inventory | null): Inventory | null => (inventory?.collected ? inventory : null);

/**
 * Reads the optional fields of one status: each the value when it is what the report schema says,
 * else null (an optional field is never fatal); a field present but unreadable is recorded, so
 * the reader can say which one it could not read.
 */
function optionalFields(fields: Record<string, unknown>, options: ReadOptions) {
  let unread: string[] | undefined;
  const field = <T>(name: keyof typeof statusFields, schema: z.ZodType<T>): NonNullable<T> | null => {
    const value = fields[name];
    if (value === undefined) return null;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data ?? null;
    (unread ??= []).push(`status.${name}`);
    return null;
  };
  // A check that cannot be read is left out; the list is then named as not read whole.
  const readChecks = listOf(fields.checks, checkReading, MAX_REPORT_CHECKS);
  const listed = Array.isArray(fields.checks) ? Math.min(fields.checks.length, MAX_REPORT_CHECKS) : 0;
  if (fields.checks !== undefined && (!Array.isArray(fields.checks) || readChecks.length < listed)) (unread ??= []).push('status.checks');
  const vmBoot = field('vmBoot', vmBootSchema);
  return {
    conclusive: field('conclusive', statusFields.conclusive),
    kernel: field('kernel', statusFields.kernel),
    agentVersion: field('agentVersion', statusFields.agentVersion),
    probedAt: field('probedAt', statusFields.probedAt),
    // Messages are clipped here so that nothing downstream carries a megabyte of text.
    checks: readChecks.map(({ hint, ...check }): ReportCheck => {
      const clipped = { ...check, message: clip(check.message, MAX_MESSAGE) };
      return options.hints && hint !== undefined ? { ...clipped, hint: clip(hint, MAX_MESSAGE) } : clipped;
    }),
    cpuVendor: field('cpuVendor', statusFields.cpuVendor),
    platform: field('platform', statusFields.platform),
    cpuFeatures: field('cpuFeatures', statusFields.cpuFeatures),
    inventory: collectedOrNull(field('inventory', statusFields.inventory)),
    hostDevices: field('hostDevices', statusFields.hostDevices),
    confidential: field('confidential', statusFields.confidential),
    taint: field('taint', statusFields.taint),
    // The canary's result with its message clipped like the checks' (a console tail may be 4 KiB, on every node).
    vmBoot: vmBoot === null ? null : { ...vmBoot, message: clip(vmBoot.message, MAX_MESSAGE) },
    unreadFields: unread ?? NONE_UNREAD,
  };
}

export function readReport(raw: unknown, options: ReadOptions = {}): ReportParse {
  return safely(() => narrowReport(raw, options), { state: 'invalid', name: null, reason: 'unreadable object' });
}

function narrowReport(raw: unknown, options: ReadOptions): ReportParse {
  if (!isRecord(raw) || !isRecord(raw.metadata)) return { state: 'invalid', name: null, reason: 'not an object with metadata' };
  const name = objectNameSchema.safeParse(raw.metadata.name);
  if (!name.success) return { state: 'invalid', name: null, reason: 'metadata.name is missing or malformed' };
  if (raw.status === undefined || raw.status === null) return { state: 'invalid', name: name.data, reason: 'the report has no status yet' };
  const core = coreSchema.safeParse(raw);
  if (!core.success) return { state: 'invalid', name: name.data, reason: firstIssue(core.error) };
  const heartbeatMs = Date.parse(core.data.status.heartbeatAt);
  if (!Number.isFinite(heartbeatMs)) return { state: 'invalid', name: name.data, reason: 'status.heartbeatAt is not a time' };
  return {
    state: 'valid',
    report: {
      name: name.data,
      nodeName: core.data.spec.nodeName,
      ownerReferences: listOf(raw.metadata.ownerReferences, ownerReferenceReading, MAX_OWNER_REFERENCES).map((owner) => ({
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.name,
        uid: owner.uid ?? null,
      })),
      ready: core.data.status.ready,
      tier: core.data.status.tier,
      heartbeatAt: core.data.status.heartbeatAt,
      heartbeatMs,
      ...optionalFields(raw.status as Record<string, unknown>, options),
    },
  };
}
