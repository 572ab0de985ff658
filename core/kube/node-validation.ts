import type { HostFacts } from '../checks/registry.ts';
import type { CheckStatus } from '../checks/result.ts';
import type { CheckResult, Tier } from '../checks/verdict.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_KIND } from './names.ts';

/** What the taint policy did on this node at the last publish. */
export interface TaintReport {
  policy: 'off' | 'not-ready' | 'bootstrap';
  /** The taint virtgate keeps on the node, if any. */
  applied: boolean;
  /** Set when the guard refused to taint: the share of the pool already tainted was too high. */
  refused?: string;
}

/**
 * The per-node report, in `status` of a cluster-scoped NodeValidation named after the node.
 * There is no status subresource: the agent writes the whole object in one request.
 */
export interface NodeValidationStatus {
  ready: boolean;
  tier: Tier;
  conclusive: boolean;
  /** Status of `dev.kvm`, for `kubectl get` (printer column). */
  kvm: CheckStatus;
  /** Kernel major.minor, for `kubectl get`. */
  kernel: string;
  checks: CheckResult[];
  facts: HostFacts;
  agentVersion: string;
  /** When the probes last ran and the verdict last changed. */
  probedAt: string;
  lastTransitionAt: string;
  /** Refreshed rarely (minutes): the aggregator calls a report stale when this is old. */
  heartbeatAt: string;
  taint: TaintReport;
}

export interface NodeValidation {
  apiVersion: `${typeof API_GROUP}/${typeof API_VERSION}`;
  kind: typeof NODE_VALIDATION_KIND;
  metadata: {
    name: string;
    resourceVersion?: string;
    uid?: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    ownerReferences?: Array<{
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
      blockOwnerDeletion?: boolean;
    }>;
  };
  spec: { nodeName: string };
  status?: NodeValidationStatus;
}
