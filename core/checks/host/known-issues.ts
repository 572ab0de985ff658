/**
 * Known bad combinations of host kernel and KubeVirt's Enterprise-Linux userland (facts.md).
 * Data, so that a new case is one entry.
 */
export interface KernelIssue {
  id: string;
  /** The issue applies from this kernel major.minor on. */
  fromKernel: string;
  /** Only on kernels that are not Enterprise-Linux builds (EL kernels backport selectively). */
  nonElKernelOnly: boolean;
  message: string;
  reference: string;
}

export const KERNEL_ISSUES: readonly KernelIssue[] = [
  {
    id: 'virtio-net-uso',
    fromKernel: '6.2',
    nonElKernelOnly: true,
    message:
      'kernels 6.2 and later negotiate virtio-net USO; the EL9 QEMU in KubeVirt 1.7 rejects that device state, so live migration fails',
    reference: 'kubevirt/kubevirt#16386',
  },
];
