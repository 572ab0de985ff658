/**
 * The confidential-guest kinds virtgate reads (core/checks/families/confidential.ts), in a file
 * without I/O so that the label names, the report schema and the page can import them.
 */
export const CONFIDENTIAL_KINDS = ['sev', 'sev-es', 'sev-snp', 'tdx'] as const;
export type ConfidentialKind = (typeof CONFIDENTIAL_KINDS)[number];

/** How each kind is written for people. */
export const KIND_NAME: Record<ConfidentialKind, string> = { sev: 'SEV', 'sev-es': 'SEV-ES', 'sev-snp': 'SEV-SNP', tdx: 'TDX' };

/** A reason in the report is clipped to this (the API server enforces it). */
export const MAX_KIND_REASON = 300;
