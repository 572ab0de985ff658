import { z } from 'zod';

/**
 * The version data file (data/versions.yaml) as a zod schema: the support matrix, the CDI pairing
 * and Kubernetes end-of-life dates. The chart can mount a replacement, so every field is checked
 * and unknown keys are rejected (a typo must not silently drop a section).
 */

/** "MAJOR.MINOR" without leading zeros. A string, because YAML reads an unquoted 1.10 as 1.1. */
export const minorSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/, 'expected a quoted "MAJOR.MINOR" string such as "1.35"');

/** A real calendar day, YYYY-MM-DD (zod checks month lengths and leap years). */
export const isoDaySchema = z.iso.date({ error: 'expected a date YYYY-MM-DD' });

const supportSchema = z.strictObject({
  kubevirt: minorSchema,
  kubernetes: z.array(minorSchema).min(1, 'expected at least one Kubernetes minor'),
});

const cdiPairSchema = z.strictObject({
  kubevirt: minorSchema,
  cdi: minorSchema,
  note: z.string().max(500).optional(),
});

const eolSchema = z.strictObject({
  kubernetes: minorSchema,
  eol: isoDaySchema,
  /** false when the date is inferred from the release pattern rather than published. */
  confirmed: z.boolean(),
  note: z.string().max(500).optional(),
});

/** Reports the first repeated key of a list, so two rows never disagree about one minor. */
function noDuplicates<T>(rows: T[], key: (row: T) => string, field: string, context: z.RefinementCtx): void {
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const value = key(row);
    if (seen.has(value)) context.addIssue({ code: 'custom', path: [index, field], message: `duplicate entry for ${value}` });
    seen.add(value);
  });
}

export const versionDataSchema = z.strictObject({
  schemaVersion: z.literal(1, { error: 'expected schemaVersion: 1' }),
  /** The day the data was last checked against its sources. */
  updated: isoDaySchema,
  kubevirtKubernetes: z
    .array(supportSchema)
    .min(1)
    .superRefine((rows, context) => noDuplicates(rows, (row) => row.kubevirt, 'kubevirt', context)),
  cdiPairing: z.array(cdiPairSchema).superRefine((rows, context) => noDuplicates(rows, (row) => row.kubevirt, 'kubevirt', context)),
  kubernetesEol: z
    .array(eolSchema)
    .min(1)
    .superRefine((rows, context) => noDuplicates(rows, (row) => row.kubernetes, 'kubernetes', context)),
});

export type VersionData = z.infer<typeof versionDataSchema>;
export type KubernetesSupport = VersionData['kubevirtKubernetes'][number];
export type CdiPair = VersionData['cdiPairing'][number];
export type KubernetesEol = VersionData['kubernetesEol'][number];
