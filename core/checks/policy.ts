export interface Policy {
  /** Count `tier: emulation` as ready (KubeVirt `useEmulation`; slow, test only). */
  allowEmulation: boolean;
  /** Kernels below this release fail `kernel.version` (major.minor). */
  minKernel: string;
}

export const DEFAULT_POLICY: Policy = {
  allowEmulation: false,
  minKernel: '4.18',
};
