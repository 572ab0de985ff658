import type { OsRelease } from './parse/os-release.ts';

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
  // RHEL CoreOS (OpenShift nodes) ships the RHEL kernel and userland.
  rhcos: 'Red Hat Enterprise Linux CoreOS',
};

export function isEnterpriseLinux(os: OsRelease): boolean {
  return Object.hasOwn(ENTERPRISE_LINUX_IDS, os.id);
}

/**
 * Red Hat's EL kernels carry `.elN` in their release (`5.14.0-427.el9.x86_64`). Kernels packaged
 * for EL but built from mainline do not behave like them: ELRepo's kernel-ml (`.el9.elrepo`) and
 * Oracle's UEK (`.el9uek`) are counted as non-EL, so known mainline issues still apply to them.
 */
export function isEnterpriseLinuxKernel(release: string): boolean {
  return /\.el\d+/.test(release) && !/elrepo|uek/.test(release);
}
