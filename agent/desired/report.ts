import { isDeepStrictEqual } from 'node:util';
import type { HostFacts } from '../../core/checks/registry.ts';
import type { Inventory } from '../../core/inventory/schema.ts';
import type { NodeValidationStatus, TaintReport } from '../../core/report/schema.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import type { EffectiveVerdict } from './verdict-hold.ts';

/** The fields whose change is news; timestamps are bookkeeping and never trigger a write by themselves. */
type ReportContent = Omit<NodeValidationStatus, 'probedAt' | 'heartbeatAt' | 'lastTransitionAt'>;

export function reportContent(
  verdict: Verdict,
  effective: EffectiveVerdict,
  facts: HostFacts,
  agentVersion: string,
  taint: TaintReport,
  inventory?: Inventory,
): ReportContent {
  const kernel = facts.kernelRelease.state === 'ok' ? (/^(\d+\.\d+)/.exec(facts.kernelRelease.value)?.[1] ?? '') : '';
  return {
    ready: effective.ready,
    tier: effective.tier,
    conclusive: verdict.conclusive,
    kvm: verdict.checks.find((check) => check.id === 'dev.kvm')?.status ?? 'error',
    kernel,
    checks: verdict.checks,
    facts,
    agentVersion,
    taint,
    ...(facts.cpu.state === 'ok' ? { cpuFeatures: facts.cpu.value.features } : {}),
    ...(inventory ? { inventory } : {}),
  };
}

/** JSON round trip: the API server stores JSON, so compare what it would hand back. */
function asStored(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** The report fields whose value differs from what is published (all of them when nothing is). */
export function changedFields(content: ReportContent, published: Partial<NodeValidationStatus> | undefined): string[] {
  const stored = asStored(content) as Record<string, unknown>;
  const current = (published ?? {}) as Record<string, unknown>;
  const keys = new Set([...Object.keys(stored), ...Object.keys(current)]);
  for (const bookkeeping of ['probedAt', 'heartbeatAt', 'lastTransitionAt']) keys.delete(bookkeeping);
  return [...keys].filter((key) => !isDeepStrictEqual(stored[key], current[key])).sort();
}
