import { z } from 'zod';
import type { CpuVendor } from '../../core/checks/parse/cpuinfo.ts';
import { CHECK_STATUSES, type CheckStatus } from '../../core/checks/result.ts';
import { type Tier, TIERS } from '../../core/checks/verdict.ts';
import { boundedString, clip, firstIssue, isRecord, listOf, safely } from './untrusted.ts';

/**
 * A NodeValidation (core/kube/node-validation.ts) as the gate reads it. Every field is untrusted:
 * the agent on a node writes it, and a compromised node could write anything. `parseNodeValidation`
 * narrows it with zod and never throws; whether the report really belongs to its node (name,
 * spec.nodeName, ownerReference) is decided later, with the Node at hand (readiness/attribution).
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
  /** From status.facts.cpu, when the probe could tell. */
  cpuVendor: CpuVendor | null;
}

export type ReportParse =
  | { state: 'valid'; report: NodeReport }
  /** `name` is metadata.name when it could be read, so the node of that name can say why. */
  | { state: 'invalid'; name: string | null; reason: string };

const CPU_VENDORS = ['intel', 'amd', 'hygon', 'arm', 'other'] as const satisfies readonly CpuVendor[];

const nameSchema = z.string().min(1).max(253);

/** The fields readiness cannot do without: a report missing any of them is invalid. */
const coreSchema = z.object({
  spec: z.object({ nodeName: nameSchema }),
  status: z.object({
    ready: z.boolean(),
    tier: z.enum(TIERS),
    // The agent writes toISOString(); anything else is not a heartbeat we can compare.
    heartbeatAt: z.iso.datetime({ offset: true }),
  }),
});

const ownerReferenceSchema = z.object({
  apiVersion: z.string().max(253),
  kind: z.string().max(63),
  name: z.string().max(253),
  uid: z.string().max(128).nullish(),
});

const checkSchema = z.object({
  id: z.string().min(1).max(63),
  status: z.enum(CHECK_STATUSES),
  message: z.string().catch(''),
});

const vendorSchema = z.object({ state: z.literal('ok'), value: z.object({ vendor: z.enum(CPU_VENDORS) }) });

export function parseNodeValidation(raw: unknown): ReportParse {
  return safely(() => narrowReport(raw), { state: 'invalid', name: null, reason: 'unreadable object' });
}

function narrowReport(raw: unknown): ReportParse {
  if (!isRecord(raw) || !isRecord(raw.metadata)) return { state: 'invalid', name: null, reason: 'not an object with metadata' };
  const name = nameSchema.safeParse(raw.metadata.name);
  if (!name.success) return { state: 'invalid', name: null, reason: 'metadata.name is missing or malformed' };
  if (raw.status === undefined || raw.status === null) return { state: 'invalid', name: name.data, reason: 'the report has no status yet' };
  const core = coreSchema.safeParse(raw);
  if (!core.success) return { state: 'invalid', name: name.data, reason: firstIssue(core.error) };
  const heartbeatMs = Date.parse(core.data.status.heartbeatAt);
  if (!Number.isFinite(heartbeatMs)) return { state: 'invalid', name: name.data, reason: 'status.heartbeatAt is not a time' };
  const status = raw.status as Record<string, unknown>;
  return {
    state: 'valid',
    report: {
      name: name.data,
      nodeName: core.data.spec.nodeName,
      ownerReferences: listOf(raw.metadata.ownerReferences, ownerReferenceSchema, 20).map((owner) => ({
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.name,
        uid: owner.uid ?? null,
      })),
      ready: core.data.status.ready,
      tier: core.data.status.tier,
      conclusive: typeof status.conclusive === 'boolean' ? status.conclusive : null,
      kernel: boundedString(status.kernel, 64),
      agentVersion: boundedString(status.agentVersion, 64),
      heartbeatAt: core.data.status.heartbeatAt,
      heartbeatMs,
      probedAt: boundedString(status.probedAt, 64),
      // Messages are clipped here so that nothing downstream carries a megabyte of text.
      checks: listOf(status.checks, checkSchema, 100).map((check) => ({ ...check, message: clip(check.message, 300) })),
      cpuVendor: isRecord(status.facts) ? (vendorSchema.safeParse(status.facts.cpu).data?.value.vendor ?? null) : null,
    },
  };
}
