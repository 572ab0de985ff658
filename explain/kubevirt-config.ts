import { narrowKubeVirt } from '../aggregator/model/kubevirt.ts';
import type { PermittedHostDevice } from '../aggregator/model/permitted-host-devices.ts';
import { boundedString, isRecord, safely, stringMap } from '../core/untrusted.ts';

/**
 * What the KubeVirt CR (kubevirt.io/v1) adds to a VMI's placement, read as virt-controller reads
 * it (KubeVirt v1.9.0, pkg/virt-config/virt-config.go and configuration.go defaults).
 */
export interface KubeVirtPlacementConfig {
  /** Whether a KubeVirt CR was found; without one, KubeVirt's defaults are assumed and said so. */
  found: boolean;
  /** developerConfiguration.useEmulation: no devices.kubevirt.io/kvm (nor vhost-net) is requested. */
  useEmulation: boolean;
  /** developerConfiguration.nodeSelectors: added to every virt-launcher pod's nodeSelector. */
  nodeSelectors: Record<string, string>;
  /** developerConfiguration.cpuAllocationRatio (default 10): a vCPU requests 1/ratio of a core. */
  cpuAllocationRatio: number;
  /** developerConfiguration.memoryOvercommit, percent (default 100). */
  memoryOvercommit: number;
  /** configuration.cpuModel: the model of VMIs that name none (null: host-model). */
  cpuModel: string | null;
  /** status.defaultArchitecture (the operator's GOARCH unless configured). */
  defaultArchitecture: string | null;
  /** The HypervStrictCheck feature gate: Hyper-V enlightenments become node selectors. */
  hypervStrictCheck: boolean;
  permittedHostDevices: PermittedHostDevice[];
}

export const KUBEVIRT_DEFAULTS: KubeVirtPlacementConfig = {
  found: false,
  useEmulation: false,
  nodeSelectors: {},
  cpuAllocationRatio: 10,
  memoryOvercommit: 100,
  cpuModel: null,
  defaultArchitecture: null,
  hypervStrictCheck: false,
  permittedHostDevices: [],
};

/** Never throws: what cannot be read keeps KubeVirt's default. */
export function kubeVirtPlacementConfig(raw: unknown): KubeVirtPlacementConfig {
  if (!isRecord(raw)) return KUBEVIRT_DEFAULTS;
  return safely(() => {
    const cr = narrowKubeVirt(raw);
    const spec = isRecord(raw.spec) ? raw.spec : {};
    const status = isRecord(raw.status) ? raw.status : {};
    const configuration = isRecord(spec.configuration) ? spec.configuration : {};
    const developer = isRecord(configuration.developerConfiguration) ? configuration.developerConfiguration : {};
    const positive = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback);
    return {
      found: true,
      useEmulation: cr.useEmulation,
      nodeSelectors: stringMap(developer.nodeSelectors, 100),
      cpuAllocationRatio: positive(developer.cpuAllocationRatio, KUBEVIRT_DEFAULTS.cpuAllocationRatio),
      memoryOvercommit: positive(developer.memoryOvercommit, KUBEVIRT_DEFAULTS.memoryOvercommit),
      cpuModel: boundedString(configuration.cpuModel, 253) || null,
      defaultArchitecture: boundedString(status.defaultArchitecture, 64) || null,
      hypervStrictCheck: cr.featureGates.includes('HypervStrictCheck'),
      permittedHostDevices: cr.permittedHostDevices,
    };
  }, { ...KUBEVIRT_DEFAULTS, found: true });
}
