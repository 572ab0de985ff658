/**
 * A pod shaped like KubeVirt's virt-launcher (the pod a VM runs in), for the multi-node scheduling
 * test (test/integration/e2e-placement.test.ts), whose fake nodes run no kubelet, so only where
 * kube-scheduler binds it matters. Where a real kubelet runs, real KubeVirt makes the real pod
 * (test/node/kubevirt.test.ts).
 *
 * In KubeVirt, the CR's `spec.workloads.nodePlacement` decides where virt-handler runs, and
 * virt-handler labels its node `kubevirt.io/schedulable=true`, which every virt-launcher pod
 * selects. No virt-handler runs here, so the pod carries both selectors itself: the placement's
 * nodeSelector (and affinity, tolerations) merged with `kubevirt.io/schedulable: "true"`. The
 * outcome is the same set of nodes.
 */
import type { V1Affinity, V1Pod } from '@kubernetes/client-node';
import type { NodePlacement } from './node-placement.ts';

export const SCHEDULABLE_LABEL = 'kubevirt.io/schedulable';
export const KVM_RESOURCE = 'devices.kubevirt.io/kvm';

/** What a virt-launcher pod takes from the KubeVirt CR. */
export interface KubeVirtView {
  placement: NodePlacement;
  /** `spec.configuration.developerConfiguration.useEmulation`: the pod then asks for no KVM device. */
  useEmulation: boolean;
}

export interface VmSpec {
  name: string;
  /** The VMI's own `spec.nodeSelector` (KubeVirt adds it to the pod), e.g. to pin a VM to a host. */
  nodeSelector?: Record<string, string>;
  labels?: Record<string, string>;
  cpu?: string;
  memory?: string;
}

export function virtLauncherPod(kubevirt: KubeVirtView, vm: VmSpec): V1Pod {
  const { placement } = kubevirt;
  // Extended resources are requested through limits (requests default to them), as virt-launcher does.
  const limits: Record<string, string> = kubevirt.useEmulation ? {} : { [KVM_RESOURCE]: '1' };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `virt-launcher-${vm.name}`,
      labels: { 'kubevirt.io': 'virt-launcher', 'vm.kubevirt.io/name': vm.name, ...vm.labels },
    },
    spec: {
      nodeSelector: { ...vm.nodeSelector, ...placement.nodeSelector, [SCHEDULABLE_LABEL]: 'true' },
      ...(placement.affinity ? { affinity: placement.affinity as V1Affinity } : {}),
      tolerations: placement.tolerations,
      automountServiceAccountToken: false,
      containers: [
        {
          name: 'compute',
          image: 'registry.invalid/kubevirt/virt-launcher:test',
          resources: { requests: { cpu: vm.cpu ?? '1', memory: vm.memory ?? '1Gi' }, limits },
        },
      ],
    },
  };
}
