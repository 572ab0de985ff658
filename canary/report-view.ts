import type { TIERS } from '../core/checks/verdict.ts';
import { readReport } from '../core/report/read.ts';
import type { PlatformReport, VmBoot } from '../core/report/schema.ts';

/**
 * What the canary reads of one NodeValidation: readReport()'s reading (core/report/read.ts), the
 * one every program uses. A report readReport calls invalid keeps only its name (the node is then
 * not ready to the canary); a missing or malformed optional field is absent here (the class then
 * says `unknown` for it), never a reason to drop the node.
 */
export interface ReportView {
  /** The report's name, which is its node's name. */
  node: string;
  ready: boolean | undefined;
  heartbeatAt: string | undefined;
  tier: (typeof TIERS)[number] | undefined;
  /** Kernel major.minor, as the agent writes it for kubectl get. */
  kernel: string | undefined;
  cpuVendor: string | undefined;
  cpuBrand: string | undefined;
  /** status.platform: bare metal or a VM, and which cloud or hypervisor. */
  platform: PlatformReport | undefined;
  vmBoot: VmBoot | undefined;
}

/** The class name is built from the kernel: only a plain major.minor goes into it. */
const KERNEL_MINOR = /^\d+\.\d+$/;

/** The canary's view of a NodeValidation as the API returns it (any shape: readReport narrows it). */
export function reportView(object: unknown): ReportView | undefined {
  const read = readReport(object);
  if (read.state === 'invalid') {
    if (read.name === null) return undefined;
    return { node: read.name, ready: undefined, heartbeatAt: undefined, tier: undefined, kernel: undefined, cpuVendor: undefined, cpuBrand: undefined, platform: undefined, vmBoot: undefined };
  }
  const { report } = read;
  return {
    node: report.name,
    ready: report.ready,
    heartbeatAt: report.heartbeatAt,
    tier: report.tier,
    kernel: report.kernel !== null && KERNEL_MINOR.test(report.kernel) ? report.kernel : undefined,
    cpuVendor: report.cpuVendor ?? undefined,
    cpuBrand: report.inventory?.cpu?.brand,
    platform: report.platform ?? undefined,
    vmBoot: report.vmBoot ?? undefined,
  };
}
