import { isDeepStrictEqual } from 'node:util';
import type { VerdictReport } from '../../core/report/build.ts';
import { type NodeValidationCondition, type NodeValidationStatus, READY_CONDITION } from '../../core/report/schema.ts';
import type { DesiredCondition } from './condition.ts';
import { AGENT_DECLARED_STATUS_KEYS } from './status-patch.ts';

/** The fields whose change is news; timestamps are bookkeeping and never trigger a write by themselves. */
export type ReportContent = Omit<NodeValidationStatus, 'probedAt' | 'heartbeatAt' | 'lastTransitionAt' | 'vmBoot'>;
/** What the verdict alone decides (core/report/build.ts); the conditions also depend on what is published. */
export type VerdictContent = VerdictReport;

/** metav1.Time: RFC 3339 in whole seconds, as Kubernetes writes a condition's time. */
function metaTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * `status.conditions`: the Ready condition in the metav1.Condition shape, mirroring the verdict
 * with the reason and message of the Node's VirtualizationReady condition (desiredCondition), and
 * observedGeneration, the NodeValidation's metadata.generation. Its lastTransitionTime changes only
 * when its status does, so an unchanged verdict gives an equal condition and no write. Conditions
 * of other types are dropped: `status.conditions` is the agent's own, written whole.
 */
export function reportConditions(wanted: DesiredCondition, generation: number, published: readonly NodeValidationCondition[] | undefined, now: Date): NodeValidationCondition[] {
  const current = Array.isArray(published) ? published.find((condition) => condition?.type === READY_CONDITION) : undefined;
  const keep = current && current.status === wanted.status && typeof current.lastTransitionTime === 'string';
  return [
    {
      type: READY_CONDITION,
      status: wanted.status,
      observedGeneration: generation,
      lastTransitionTime: keep ? current.lastTransitionTime : metaTime(now),
      reason: wanted.reason,
      message: wanted.message,
    },
  ];
}

/** The whole report content: the verdict's, the conditions and the generation it was written for. */
export function statusContent(
  content: VerdictContent,
  wanted: DesiredCondition,
  generation: number,
  published: Partial<NodeValidationStatus> | undefined,
  now: Date,
): ReportContent {
  return { ...content, conditions: reportConditions(wanted, generation, published?.conditions, now), observedGeneration: generation };
}

/** JSON round trip: the API server stores JSON, so compare what it would hand back. */
function asStored(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
 * The report fields whose value differs from what is published (all of them when nothing is).
 * Only the agent's keys count: the canary's `vmBoot`, and keys the schema does not declare that
 * the agent does not write, are someone else's and left as they are.
 */
export function changedFields(content: VerdictContent, published: Partial<NodeValidationStatus> | undefined): string[] {
  const stored = asStored(content) as Record<string, unknown>;
  const current = (published ?? {}) as Record<string, unknown>;
  const keys = new Set([...Object.keys(stored), ...Object.keys(current).filter((key) => AGENT_DECLARED_STATUS_KEYS.includes(key))]);
  for (const bookkeeping of ['probedAt', 'heartbeatAt', 'lastTransitionAt']) keys.delete(bookkeeping);
  return [...keys].filter((key) => !isDeepStrictEqual(stored[key], current[key])).sort();
}
