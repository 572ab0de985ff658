import type { OsRelease } from '../host/facts.ts';

/**
 * The RHEL family, by os-release ID. ID_LIKE is deliberately ignored: Amazon Linux says
 * `fedora` (and AL2 even `centos rhel`) without shipping an EL kernel or userland.
 */
export const ENTERPRISE_LINUX_IDS: Readonly<Record<string, string>> = {
  rhel: 'Red Hat Enterprise Linux',
  centos: 'CentOS Stream',
  rocky: 'Rocky Linux',
  almalinux: 'AlmaLinux',
  ol: 'Oracle Linux',
};

export function isEnterpriseLinux(os: OsRelease): boolean {
  return Object.hasOwn(ENTERPRISE_LINUX_IDS, os.id);
}

/** EL kernels carry `.elN` in their release: `5.14.0-427.el9.x86_64`, `5.15.0-200.el9uek`. */
export function isEnterpriseLinuxKernel(release: string): boolean {
  return /\.el\d+/.test(release);
}
