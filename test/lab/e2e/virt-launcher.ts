/**
 * A pod shaped like KubeVirt's virt-launcher (the pod a VM runs in), for the multi-node scheduling
 * test (test/integration/e2e-placement.test.ts), whose fake nodes run no kubelet, so only where
 * kube-scheduler binds it matters. Where a real kubelet runs, real KubeVirt makes the real pod
 * (test/node/kubevirt.test.ts).
 *
 * As KubeVirt v1.9.0 renders it (pkg/virt-controller/services/template.go): its node selector is
 * the VMI's own `spec.nodeSelector` plus `kubevirt.io/schedulable: "true"`, and its tolerations are
 * the VMI's. The CR's `spec.workloads.nodePlacement` is **not** on it: the placement decides where
 * virt-handler runs, and virt-handler labels that node schedulable (virt-handler.ts stands in for
 * that). A node virt-handler left keeps the label until virt-controller finds its heartbeat stale.
 */
import type { V1Pod, V1Toleration } from '@kubernetes/client-node';

export const SCHEDULABLE_LABEL = 'kubevirt.io/schedulable';
export const KVM_RESOURCE = 'devices.kubevirt.io/kvm';

/** What a virt-launcher pod takes from the KubeVirt CR. */
export interface LauncherSettings {
  /** `spec.configuration.developerConfiguration.useEmulation`: the pod then asks for no KVM device. */
  useEmulation: boolean;
}

export interface VmSpec {
  name: string;
  /** The VMI's own `spec.nodeSelector` (KubeVirt adds it to the pod), e.g. to pin a VM to a host. */
  nodeSelector?: Record<string, string>;
  /** The VMI's own `spec.tolerations`. */
  tolerations?: V1Toleration[];
  labels?: Record<string, string>;
  cpu?: string;
  memory?: string;
}

export function virtLauncherPod(kubevirt: LauncherSettings, vm: VmSpec): V1Pod {
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
      nodeSelector: { ...vm.nodeSelector, [SCHEDULABLE_LABEL]: 'true' },
      ...(vm.tolerations ? { tolerations: vm.tolerations } : {}),
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
