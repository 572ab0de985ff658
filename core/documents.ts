import { API_GROUP, API_VERSION } from './kube/names.ts';

/**
 * Every JSON document virtgate emits (the CLI's `--json` output, every body of the aggregator's
 * API, error bodies included) starts with `apiVersion` and `kind`, the way Kubernetes objects do, so
 * a consumer can tell which document it holds and notice a schema change. They share the
 * NodeValidation CRD's group and version: a breaking change to any of them moves the version on
 * (`v1alpha1` → `v1alpha2`/`v1beta1`), an added field does not.
 *
 * This module is the one list of the names; aggregator/documents/ and the CLI's document
 * types use it, and documents.test.ts checks every route and every `--json` command against it.
 * The aggregator's page (aggregator/page/app.ts, compiled for the browser on its own) repeats the
 * one kind it reads; the same test checks that it matches.
 */
export const DOCUMENT_API_VERSION = `${API_GROUP}/${API_VERSION}` as const;

export const DOCUMENT_KINDS = {
  /** `virtgate check --json` */
  check: 'CheckResult',
  /** `virtgate gate --json` */
  gate: 'GateResult',
  /** `virtgate gate --json` when the cluster cannot be read (exit 4). */
  gateError: 'GateError',
  /** `virtgate tuple --json` */
  tuple: 'TupleResult',
  /** `virtgate explain --json`: where a VM can run, and why not elsewhere. */
  explain: 'ExplainResult',
  /** GET /api/v1/gate: the gate result with the aggregator's own state. */
  apiGate: 'GateReport',
  /** GET /api/v1/summary */
  apiSummary: 'GateSummary',
  /** GET /api/v1/nodes */
  apiNodes: 'NodeReadinessList',
  /** GET /api/v1/nodes/:name */
  apiNode: 'NodeReadiness',
  /** GET /api/v1/canary: the VM canary's results per node class. */
  apiCanary: 'CanaryReport',
  /** Every error body of the API (400, 404, 503, 500). */
  apiError: 'Error',
} as const;

export type DocumentKind = (typeof DOCUMENT_KINDS)[keyof typeof DOCUMENT_KINDS];

export interface TypeMeta<K extends DocumentKind> {
  apiVersion: typeof DOCUMENT_API_VERSION;
  kind: K;
}

/** `{ apiVersion, kind }`, to spread first into a document so the two lead its JSON. */
export function typeMeta<K extends DocumentKind>(kind: K): TypeMeta<K> {
  return { apiVersion: DOCUMENT_API_VERSION, kind };
}
