import { z } from 'zod';
import { DOCUMENT_KINDS } from '../../core/documents.ts';
import { typeMetaShape } from './meta.ts';
import { clusterReadinessSchema } from './readiness.ts';
import { GATE_CHECK_IDS, TUPLE_CHECK_IDS } from './gate-check-ids.ts';

export { GATE_CHECK_IDS, TUPLE_CHECK_IDS };
export type TupleCheckId = (typeof TUPLE_CHECK_IDS)[number];
export type GateCheckId = (typeof GATE_CHECK_IDS)[number];

/** `unknown`: the gate could not tell (missing data). It counts as a warning for exit codes. */
export const GATE_STATUSES = ['pass', 'unknown', 'warn', 'fail'] as const;
export type GateStatus = (typeof GATE_STATUSES)[number];

export const gateStatusSchema = z.enum(GATE_STATUSES);

/** Exit codes of `virtgate gate` and `virtgate tuple`: 0 pass, 1 fail, 3 warn or unknown. */
export const gateExitCodeSchema = z.union([z.literal(0), z.literal(1), z.literal(3)]);

/** Evidence is small free-form JSON (lists capped, strings clipped); its keys per check are listed in docs/gate.md. */
export const evidenceSchema = z.record(z.string(), z.json());

export const gateCheckSchema = z.strictObject({
  id: z.enum(GATE_CHECK_IDS),
  status: gateStatusSchema,
  /** One line a platform engineer can act on; includes the fix when there is one. */
  message: z.string(),
  /** What the check looked at. */
  evidence: evidenceSchema,
});
/** A gate check; `Id` narrows the id (the tuple's checks). */
export type GateCheck<Id extends GateCheckId = GateCheckId> = z.infer<typeof gateCheckSchema> & { id: Id };

/** A version as observed in the cluster or given on the command line. */
export const observedVersionSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('known'), version: z.string(), minor: z.string() }),
  /** Not installed / not given: `reason` says which. */
  z.strictObject({ state: z.literal('absent'), reason: z.string() }),
  /** Installed but its version cannot be read. */
  z.strictObject({ state: z.literal('unknown'), reason: z.string() }),
]);
export type ObservedVersion = z.infer<typeof observedVersionSchema>;

/** The versions the tuple checks compared. */
export const versionTupleSchema = z.strictObject({ kubernetes: observedVersionSchema, kubevirt: observedVersionSchema, cdi: observedVersionSchema });
export type VersionTuple = z.infer<typeof versionTupleSchema>;

/** `virtgate tuple` and the tuple part of the gate. */
export const tupleResultSchema = z.strictObject({
  result: gateStatusSchema,
  exitCode: gateExitCodeSchema,
  /** The evaluation day, YYYY-MM-DD (UTC). */
  date: z.string(),
  tuple: versionTupleSchema,
  /** The version data's `updated` day. */
  dataUpdated: z.string(),
  checks: z.array(gateCheckSchema.extend({ id: z.enum(TUPLE_CHECK_IDS) })),
});
export type TupleResult = z.infer<typeof tupleResultSchema>;

/** The versions and the version data's `updated` day. */
export const gateVersionsSchema = z.strictObject({ ...versionTupleSchema.shape, dataUpdated: z.string() });

/** One of KubeVirt's permittedHostDevices and the ready nodes that can provide it (gate/host-devices.ts). */
export const hostDeviceAvailabilitySchema = z.strictObject({
  resource: z.string().describe('resourceName, as VMs request it.'),
  kind: z.enum(['pci', 'mediated']),
  selector: z.string().describe('pciVendorSelector (upper case) or mdevNameSelector (spaces as underscores).'),
  external: z.boolean().describe('externalResourceProvider: served by another device plugin, not judged.'),
  nodes: z.int().min(0).describe('Ready nodes that can provide it.'),
  devices: z.int().min(0).describe('PCI functions ready for VFIO, or mediated instances created or available, on those nodes.'),
  providers: z.array(z.string()).describe('The first providing nodes.'),
  reasons: z.array(z.string()).describe('Why the first other ready nodes cannot, one line each.'),
});
export type HostDeviceAvailability = z.infer<typeof hostDeviceAvailabilitySchema>;

/** The whole gate's result, served at /api/v1/gate; `readiness` feeds /api/v1/summary and /api/v1/nodes. */
export const gateResultSchema = z.strictObject({
  result: gateStatusSchema,
  exitCode: gateExitCodeSchema,
  /** The evaluation time (ISO 8601). */
  evaluatedAt: z.string(),
  /** Every id of GATE_CHECK_IDS, in that order. */
  checks: z.array(gateCheckSchema),
  versions: gateVersionsSchema,
  readiness: clusterReadinessSchema,
  /** KubeVirt's permittedHostDevices and who provides them; empty without KubeVirt. */
  hostDevices: z.array(hostDeviceAvailabilitySchema),
});
export type GateResult = z.infer<typeof gateResultSchema>;

/** `virtgate gate --json`: the gate result as a document. */
export const gateResultDocumentSchema = z.strictObject({ ...typeMetaShape(DOCUMENT_KINDS.gate), ...gateResultSchema.shape });
export type GateResultDocument = z.infer<typeof gateResultDocumentSchema>;
