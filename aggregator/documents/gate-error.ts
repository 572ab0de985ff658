import { z } from 'zod';
import { DOCUMENT_KINDS } from '../../core/documents.ts';
import { typeMetaShape } from './meta.ts';

/**
 * Why `virtgate gate` could not read the cluster, by the HTTP status of the request that failed:
 * - Unreachable: no answer (refused, reset, TLS, timed out);
 * - Unauthorized: 401, the credentials were rejected;
 * - Forbidden: 403, RBAC does not grant a permission the gate needs;
 * - Throttled: 429 after the retries;
 * - ServerError: 5xx after the retries;
 * - ApiError: any other status.
 */
export const GATE_ERROR_REASONS = ['Unreachable', 'Unauthorized', 'Forbidden', 'Throttled', 'ServerError', 'ApiError'] as const;
export type GateErrorReason = (typeof GATE_ERROR_REASONS)[number];

/** The reason for the HTTP status of the failed request (0 when no answer came). */
export function gateErrorReason(status: number): GateErrorReason {
  if (status === 0) return 'Unreachable';
  if (status === 401) return 'Unauthorized';
  if (status === 403) return 'Forbidden';
  if (status === 429) return 'Throttled';
  if (status >= 500) return 'ServerError';
  return 'ApiError';
}

/** `virtgate gate --json` when the cluster could not be read: on stdout, with exit code 4 (the one-line error still goes to stderr). */
export const gateErrorDocumentSchema = z.strictObject({
  ...typeMetaShape(DOCUMENT_KINDS.gateError),
  error: z.strictObject({
    reason: z.enum(GATE_ERROR_REASONS),
    /** The HTTP status of the failed request; null when no answer came. */
    httpStatus: z.number().int().nullable(),
    /** The same line as on stderr, without the `virtgate: ` prefix: what failed and what to do. */
    message: z.string(),
  }),
  exitCode: z.literal(4),
});
export type GateErrorDocument = z.infer<typeof gateErrorDocumentSchema>;
