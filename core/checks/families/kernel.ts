// The three functions, not the package: its index builds every range and comparator at load.
import semverCoerce from 'semver/functions/coerce.js';
import semverGte from 'semver/functions/gte.js';
import semverLt from 'semver/functions/lt.js';
import { isEnterpriseLinuxKernel } from '../host/enterprise-linux.ts';
import type { CheckFamily, ProbeContext } from '../family.ts';
import { describeRead, readHostFile } from '../host/files.ts';
import { KERNEL_ISSUES } from '../host/known-issues.ts';
import type { Observation } from '../observation.ts';
import type { Policy } from '../policy.ts';
import type { CheckOutcomeOf } from '../outcome.ts';

/** The running kernel's release against the policy's minimum and the known bad combinations. */
const IDS = ['kernel.version'] as const;
type KernelCheckId = (typeof IDS)[number];

export interface KernelFamilyFacts {
  kernelRelease: Observation<string>;
}

/** The running kernel's release, e.g. `5.14.0-427.el9.x86_64`. */
async function probeKernelRelease(hostRoot: string): Promise<Observation<string>> {
  const read = await readHostFile(hostRoot, 'proc/sys/kernel/osrelease', 4096);
  if (read.state !== 'ok') return { state: 'unknown', reason: describeRead('proc/sys/kernel/osrelease', read) };
  const release = read.text.trim();
  // The kernel caps a release at 64 characters (__NEW_UTS_LEN): anything longer is not one.
  if (!/^\d+\.\d+/.test(release) || /[^\x21-\x7e]/.test(release) || release.length > 64) {
    return { state: 'unknown', reason: `proc/sys/kernel/osrelease is not a kernel release: ${JSON.stringify(release.slice(0, 64))}` };
  }
  return { state: 'ok', value: release };
}

function evaluateKernelVersion(release: Observation<string>, minKernel: string): CheckOutcomeOf<KernelCheckId> {
  const id = 'kernel.version';
  if (release.state === 'unknown') return { id, status: 'error', message: release.reason };
  const version = semverCoerce(release.value);
  const minimum = semverCoerce(minKernel);
  if (!version || !minimum) return { id, status: 'error', message: `cannot read a version from kernel release ${release.value}` };
  const elKernel = isEnterpriseLinuxKernel(release.value);
  const observed = { release: release.value, enterpriseLinuxKernel: elKernel };
  if (semverLt(version, minimum)) {
    return {
      id,
      status: 'fail',
      message: `kernel ${release.value} is older than the minimum ${minKernel}`,
      hint: 'Upgrade the node image to a supported kernel.',
      observed,
    };
  }
  const issues = KERNEL_ISSUES.filter(
    (issue) => semverGte(version, semverCoerce(issue.fromKernel) ?? '0.0.0') && !(issue.nonElKernelOnly && elKernel),
  );
  if (issues.length > 0) {
    return {
      id,
      status: 'warn',
      message: `kernel ${release.value}: ${issues.map((issue) => `${issue.message} (${issue.reference})`).join('; ')}`,
      hint: 'Test live migration with your KubeVirt version on this kernel before production, or use an Enterprise-Linux kernel.',
      observed: { ...observed, issues: issues.map((issue) => issue.id) },
    };
  }
  return { id, status: 'pass', message: `kernel ${release.value}`, observed };
}

/** Kernel major.minor from the release string, '' when it was not read. */
export function kernelMinor(facts: KernelFamilyFacts): string {
  return facts.kernelRelease.state === 'ok' ? (/^(\d+\.\d+)/.exec(facts.kernelRelease.value)?.[1] ?? '') : '';
}

export const kernelFamily = {
  ids: IDS,
  probe: async ({ hostRoot }: ProbeContext): Promise<KernelFamilyFacts> => ({ kernelRelease: await probeKernelRelease(hostRoot) }),
  evaluate: (facts: KernelFamilyFacts, policy: Policy) => [evaluateKernelVersion(facts.kernelRelease, policy.minKernel)],
  labels: {
    declared: [{ name: 'kernel', values: 'major.minor, e.g. `6.8`', meaning: "the node's kernel line, to select or avoid one" }],
    values: (facts: KernelFamilyFacts) => ({ kernel: kernelMinor(facts) || undefined }),
  },
  report: {
    fields: ['kernel'],
    build: (facts: KernelFamilyFacts) => ({ kernel: kernelMinor(facts) }),
  },
  example: { kernelRelease: { state: 'ok', value: '5.14.0-427.13.1.el9_4.x86_64' } } satisfies KernelFamilyFacts,
} satisfies CheckFamily;
