import type { JsonObject } from '../json.ts';

/** Stable check ids: the JSON output, the NodeValidation report and the metrics use them. */
export const CHECK_IDS = [
  'cpu.virtualization',
  'dev.kvm',
  'dev.tun',
  'dev.vhost-net',
  'kernel.modules',
  'kvm.nested',
  'kernel.version',
  'os.userland',
  'cgroup',
  'iommu',
  'virt-host-validate',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/**
 * `error` means the probe itself could not tell (EIO, timeout, unparseable output).
 * It is not a failure and must never flip a published verdict by itself.
 */
export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'skip', 'error'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export interface CheckResult {
  id: CheckId;
  status: CheckStatus;
  /** One line a platform engineer can act on. */
  message: string;
  /** The remedy, when there is one. */
  hint?: string;
  /** What the probe saw, for support cases. */
  observed?: JsonObject;
}

export const TIERS = ['hardware', 'emulation', 'none'] as const;
export type Tier = (typeof TIERS)[number];

export interface Verdict {
  tier: Tier;
  ready: boolean;
  /** False when a check that decides the tier ended in `error`: the tier is a guess. */
  conclusive: boolean;
  checks: CheckResult[];
}

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
