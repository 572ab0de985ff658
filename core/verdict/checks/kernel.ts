import semver from 'semver';
import type { Observation, OsRelease } from '../../host/facts.ts';
import { isEnterpriseLinux, isEnterpriseLinuxKernel } from '../enterprise-linux.ts';
import { KERNEL_ISSUES } from '../known-issues.ts';
import type { CheckResult } from '../types.ts';

export function evaluateKernelVersion(release: Observation<string>, minKernel: string): CheckResult {
  const id = 'kernel.version';
  if (release.state === 'unknown') return { id, status: 'error', message: release.reason };
  const version = semver.coerce(release.value);
  const minimum = semver.coerce(minKernel);
  if (!version || !minimum) return { id, status: 'error', message: `cannot read a version from kernel release ${release.value}` };
  const elKernel = isEnterpriseLinuxKernel(release.value);
  const observed = { release: release.value, enterpriseLinuxKernel: elKernel };
  if (semver.lt(version, minimum)) {
    return {
      id,
      status: 'fail',
      message: `kernel ${release.value} is older than the minimum ${minKernel}`,
      hint: 'Upgrade the node image to a supported kernel.',
      observed,
    };
  }
  const issues = KERNEL_ISSUES.filter(
    (issue) => semver.gte(version, semver.coerce(issue.fromKernel) ?? '0.0.0') && !(issue.nonElKernelOnly && elKernel),
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

export function evaluateUserland(os: Observation<OsRelease>): CheckResult {
  const id = 'os.userland';
  if (os.state === 'unknown') return { id, status: 'error', message: os.reason };
  const { id: osId, prettyName, idLike } = os.value;
  const observed = { id: osId, idLike, prettyName, versionId: os.value.versionId };
  if (isEnterpriseLinux(os.value)) {
    return { id, status: 'pass', message: `${prettyName} is Enterprise Linux, like virt-launcher's userland`, observed };
  }
  return {
    id,
    status: 'warn',
    message: `${prettyName} is not Enterprise Linux; virt-launcher's EL QEMU and libvirt may negotiate KVM/vhost features this kernel handles differently`,
    hint: 'KubeVirt documents this as a risk, not a blocker: test VM start and live migration on this node image.',
    observed,
  };
}
