import type { HostFacts } from '../checks/registry.ts';
import { confidentialSummary } from '../checks/families/confidential.ts';
import { hostDevicesOf } from '../checks/families/passthrough.ts';
import { classifyPlatform } from '../checks/host/platform-class.ts';
import type { Tier, Verdict } from '../checks/verdict.ts';
import type { Inventory } from '../inventory/schema.ts';
import type { NodeValidationStatus, PlatformReport, TaintReport } from './schema.ts';

/**
 * What a verdict and its facts publish in a report: every field of `status` but the bookkeeping
 * the publisher adds (timestamps, conditions, generation) and the canary's `vmBoot`.
 */
export type VerdictReport = Omit<NodeValidationStatus, 'probedAt' | 'heartbeatAt' | 'lastTransitionAt' | 'conditions' | 'observedGeneration' | 'vmBoot'>;

export interface ReportInputs {
  verdict: Verdict;
  /** What the node publishes: the verdict's, or the one held while a deciding check errs (agent/desired/verdict-hold.ts). */
  effective: { ready: boolean; tier: Tier };
  facts: HostFacts;
  agentVersion: string;
  taint: TaintReport;
  inventory?: Inventory;
}

/** Kernel major.minor from the release string, '' when it was not read. */
export function kernelMinor(facts: Pick<HostFacts, 'kernelRelease'>): string {
  return facts.kernelRelease.state === 'ok' ? (/^(\d+\.\d+)/.exec(facts.kernelRelease.value)?.[1] ?? '') : '';
}

/**
 * The report a verdict publishes: the one builder of a NodeValidation's status, used by the agent,
 * the test lab, the bench and the demo. Each fact is stored once, in its declared field; the raw
 * facts are not stored (each check's `observed` keeps what people need to see).
 */
export function buildReport({ verdict, effective, facts, agentVersion, taint, inventory }: ReportInputs): VerdictReport {
  const confidential = confidentialSummary(facts.confidential);
  const hostDevices = hostDevicesOf(facts);
  return {
    ready: effective.ready,
    tier: effective.tier,
    conclusive: verdict.conclusive,
    kvm: verdict.checks.find((check) => check.id === 'dev.kvm')?.status ?? 'error',
    kernel: kernelMinor(facts),
    ...(facts.cpu.state === 'ok' ? { cpuVendor: facts.cpu.value.vendor, cpuFeatures: facts.cpu.value.features } : {}),
    platform: platformReport(facts),
    checks: verdict.checks,
    agentVersion,
    taint,
    ...(confidential ? { confidential } : {}),
    ...(inventory ? { inventory } : {}),
    ...(hostDevices ? { hostDevices } : {}),
  };
}

/** Absent rather than null: the API server prunes a null the schema does not allow, and the report would never equal what is stored. */
function platformReport(facts: Pick<HostFacts, 'platform' | 'cpu'>): PlatformReport {
  const { kind, cloud, hypervisor } = classifyPlatform(facts.platform, facts.cpu);
  return { kind, ...(cloud === null ? {} : { cloud }), ...(hypervisor === null ? {} : { hypervisor: hypervisor.slice(0, 128) }) };
}
