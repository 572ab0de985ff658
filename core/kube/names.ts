import { isDnsSubdomain } from '../dns-name.ts';

/**
 * Every key virtgate writes lives under one prefix (configurable; the chart passes it in).
 * Never `kubevirt.io`, `*.kubevirt.io` or `kubernetes.io`: KubeVirt's node-labeller deletes
 * labels under its prefixes, and `kubernetes.io` is reserved.
 */
export const DEFAULT_PREFIX = 'virtgate.io';

/** The CRD's API group is fixed: a CRD cannot follow a runtime setting. */
export const API_GROUP = 'virtgate.io';
export const API_VERSION = 'v1alpha1';
export const NODE_VALIDATION_KIND = 'NodeValidation';
export const NODE_VALIDATION_PLURAL = 'nodevalidations';

export const CONDITION_TYPE = 'VirtualizationReady';

export interface NodeKeys {
  prefix: string;
  /** The verdict's own labels. */
  labels: {
    ready: string;
    tier: string;
  };
  /** A label a check family owns (core/checks/families, `labels`): `<prefix>/<name>`. */
  familyLabel: (name: string) => string;
  /** Records which labels and taints virtgate owns, so it only ever removes those. */
  ownershipAnnotation: string;
  notReadyTaint: string;
}

export function nodeKeys(prefix: string = DEFAULT_PREFIX): NodeKeys {
  return {
    prefix,
    labels: {
      ready: `${prefix}/ready`,
      tier: `${prefix}/tier`,
    },
    familyLabel: (name) => `${prefix}/${name}`,
    ownershipAnnotation: `${prefix}/owned`,
    notReadyTaint: `${prefix}/not-ready`,
  };
}

/** A DNS-subdomain prefix, as label key prefixes must be (RFC 1123, at most 253 characters). */
export function isValidPrefix(prefix: string): boolean {
  return (
    isDnsSubdomain(prefix) &&
    !/(^|\.)kubevirt\.io$/.test(prefix) &&
    !/(^|\.)kubernetes\.io$/.test(prefix) &&
    !/(^|\.)k8s\.io$/.test(prefix)
  );
}
