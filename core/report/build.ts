import type { HostFacts } from '../checks/registry.ts';
import { familyReport } from '../checks/publications.ts';
import type { Tier, Verdict } from '../checks/verdict.ts';
import type { Inventory } from '../inventory/schema.ts';
import type { NodeValidationStatus, TaintReport } from './schema.ts';

/**
 * What a verdict and its facts publish in a report: every field of `status` but the bookkeeping
 * the publisher adds (timestamps, conditions, generation) and the canary's `vmBoot`.
 */
export type VerdictReport = Omit<NodeValidationStatus, 'probedAt' | 'heartbeatAt' | 'lastTransitionAt' | 'conditions' | 'observedGeneration' | 'vmBoot'>;

/** The fields the verdict itself fills; every other field of VerdictReport is owned by one check family (its `report`). */
export const VERDICT_FIELDS = ['ready', 'tier', 'conclusive', 'checks', 'agentVersion', 'taint', 'inventory'] as const satisfies readonly (keyof VerdictReport)[];

export interface ReportInputs {
  verdict: Verdict;
  /** What the node publishes: the verdict's, or the one held while a deciding check errs (agent/desired/verdict-hold.ts). */
  effective: { ready: boolean; tier: Tier };
  facts: HostFacts;
  agentVersion: string;
  taint: TaintReport;
  inventory?: Inventory;
}

/**
 * The report a verdict publishes: the one builder of a NodeValidation's status, used by the agent,
 * the test lab, the bench and the demo. Each fact is stored once, in the field of the family that
 * owns it; the raw facts are not stored (each check's `observed` keeps what people need to see).
 */
export function buildReport({ verdict, effective, facts, agentVersion, taint, inventory }: ReportInputs): VerdictReport {
  const fromFamilies = familyReport(facts, verdict.checks);
  // `kvm` and `kernel` are required fields; the devices and kernel families always fill them.
  const { kvm = 'error', kernel = '', ...rest } = fromFamilies;
  return {
    ready: effective.ready,
    tier: effective.tier,
    conclusive: verdict.conclusive,
    kvm,
    kernel,
    ...rest,
    checks: verdict.checks,
    agentVersion,
    taint,
    ...(inventory ? { inventory } : {}),
  };
}
