import { z } from 'zod';
import { firstIssue, isRecord, safely, stringMap } from '../../core/untrusted.ts';

/**
 * KubeVirt's `spec.workloads.nodePlacement` (nodeSelector, required node affinity, tolerations):
 * it decides where virt-handler runs, and so where VMs can run. Kubernetes semantics: the
 * nodeSelector and the affinity must both match; affinity terms are ORed, the expressions of a
 * term are ANDed. Operators are kept as written; the matcher treats an unknown one as no match.
 */
export interface NodeSelectorRequirement {
  key: string;
  /** In | NotIn | Exists | DoesNotExist | Gt | Lt */
  operator: string;
  values: string[];
}

export interface NodeSelectorTerm {
  matchExpressions: NodeSelectorRequirement[];
  /** Only `metadata.name` is a valid field, as in Kubernetes. */
  matchFields: NodeSelectorRequirement[];
}

export interface Toleration {
  /** Empty with operator Exists tolerates every taint. */
  key: string;
  /** Equal (the default) | Exists */
  operator: string;
  value: string;
  /** Empty tolerates every effect. */
  effect: string;
}

export type WorkloadPlacement =
  | {
      state: 'valid';
      nodeSelector: Record<string, string>;
      /** null: no required node affinity, so it does not narrow the selection. */
      requiredTerms: NodeSelectorTerm[] | null;
      tolerations: Toleration[];
    }
  /** The placement could not be read: the gate says so rather than guess where VMs go. */
  | { state: 'invalid'; reason: string };

const requirementSchema = z.object({
  key: z.string().max(317),
  operator: z.string().max(32),
  values: z.array(z.string().max(1024)).max(1000).nullish(),
});

const termSchema = z.object({
  matchExpressions: z.array(requirementSchema).max(100).nullish(),
  matchFields: z.array(requirementSchema).max(100).nullish(),
});

const tolerationSchema = z.object({
  key: z.string().max(317).nullish(),
  operator: z.string().max(32).nullish(),
  value: z.string().max(1024).nullish(),
  effect: z.string().max(32).nullish(),
});

const placementSchema = z.object({
  nodeSelector: z.record(z.string(), z.string()).nullish(),
  affinity: z
    .object({
      nodeAffinity: z
        .object({
          requiredDuringSchedulingIgnoredDuringExecution: z.object({ nodeSelectorTerms: z.array(termSchema).max(100) }).nullish(),
        })
        .nullish(),
    })
    .nullish(),
  tolerations: z.array(tolerationSchema).max(1000).nullish(),
});

const SELECTS_ALL: WorkloadPlacement = { state: 'valid', nodeSelector: {}, requiredTerms: null, tolerations: [] };

/** Narrows a raw nodePlacement; absent means "every node". Never throws. */
export function parseWorkloadPlacement(raw: unknown): WorkloadPlacement {
  return safely(() => narrowPlacement(raw), { state: 'invalid', reason: 'unreadable object' });
}

function narrowPlacement(raw: unknown): WorkloadPlacement {
  if (raw === undefined || raw === null) return SELECTS_ALL;
  if (!isRecord(raw)) return { state: 'invalid', reason: 'spec.workloads.nodePlacement is not an object' };
  const parsed = placementSchema.safeParse(raw);
  if (!parsed.success) return { state: 'invalid', reason: firstIssue(parsed.error) };
  const required = parsed.data.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return {
    state: 'valid',
    // Read again through stringMap so that a key named "__proto__" stays a plain key.
    nodeSelector: stringMap(raw.nodeSelector),
    requiredTerms: required
      ? required.nodeSelectorTerms.map((term) => ({
          matchExpressions: (term.matchExpressions ?? []).map(requirement),
          matchFields: (term.matchFields ?? []).map(requirement),
        }))
      : null,
    tolerations: (parsed.data.tolerations ?? []).map((toleration) => ({
      key: toleration.key ?? '',
      operator: toleration.operator ?? '',
      value: toleration.value ?? '',
      effect: toleration.effect ?? '',
    })),
  };
}

function requirement(raw: z.infer<typeof requirementSchema>): NodeSelectorRequirement {
  return { key: raw.key, operator: raw.operator, values: raw.values ?? [] };
}
