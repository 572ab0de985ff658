import { z } from 'zod';
import { inventorySchema } from '../core/inventory/schema.ts';
import { TIERS } from '../core/checks/verdict.ts';
import { type VmBoot, vmBootSchema } from '../core/report/schema.ts';

/**
 * What the canary reads of one NodeValidation, narrowed field by field: a field that is missing or
 * malformed is absent here (the class then says `unknown` for it), never a reason to drop the node.
 */
export interface ReportView {
  /** The report's name, which is its node's name. */
  node: string;
  ready: boolean | undefined;
  heartbeatAt: string | undefined;
  tier: (typeof TIERS)[number] | undefined;
  /** Kernel major.minor, as the agent writes it for kubectl get. */
  kernel: string | undefined;
  cpuVendor: string | undefined;
  cpuBrand: string | undefined;
  /** The `platform` check's reading: bare metal or a VM, and which cloud or hypervisor. */
  platform: { kind: string; cloud?: string | null; hypervisor?: string | null } | undefined;
  vmBoot: VmBoot | undefined;
}

const platformObservedSchema = z.object({ kind: z.string().max(32), cloud: z.string().max(64).nullish(), hypervisor: z.string().max(128).nullish() });
const cpuFactsSchema = z.object({ state: z.literal('ok'), value: z.object({ vendor: z.string().max(32) }) });
const checkSchema = z.object({ id: z.string(), observed: z.unknown().optional() });

/** `schema`'s reading of `value`, or undefined when it does not fit. */
function field<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function platformOf(checks: unknown): ReportView['platform'] {
  if (!Array.isArray(checks)) return undefined;
  const check = checks.map((each) => field(checkSchema, each)).find((each) => each?.id === 'platform');
  return field(platformObservedSchema, check?.observed);
}

/** The canary's view of a NodeValidation as the API returns it (any shape: it is narrowed here). */
export function reportView(object: unknown): ReportView | undefined {
  const name = field(z.object({ metadata: z.object({ name: z.string().min(1) }) }), object)?.metadata.name;
  if (name === undefined) return undefined;
  const status = field(z.record(z.string(), z.unknown()), (object as { status?: unknown }).status) ?? {};
  const inventory = field(inventorySchema, status.inventory);
  return {
    node: name,
    ready: field(z.boolean(), status.ready),
    heartbeatAt: field(z.iso.datetime({ offset: true }), status.heartbeatAt),
    tier: field(z.enum(TIERS), status.tier),
    kernel: field(z.string().regex(/^\d+\.\d+$/), status.kernel),
    cpuVendor: field(cpuFactsSchema, (status.facts as { cpu?: unknown } | undefined)?.cpu)?.value.vendor,
    cpuBrand: inventory?.cpu?.brand,
    platform: platformOf(status.checks),
    vmBoot: field(vmBootSchema, status.vmBoot),
  };
}
