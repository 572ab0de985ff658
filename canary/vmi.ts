import { createHash } from 'node:crypto';
import type { NodeKeys } from '../core/kube/names.ts';
import type { PickedNode } from './pick.ts';

/**
 * The canary's VMI for one picked node (pure). As small as KubeVirt runs: one vCPU, 64Mi (KubeVirt
 * adds its own overhead to the launcher pod separately), no network, no graphics, no balloon, the serial console
 * logged (where the guest prints its marker), and a firmware UUID that is the run's nonce.
 * Plain QEMU boots the sector with 32 MiB (canary/guest/README.md); 64Mi is kept because that is
 * what the real-node tests prove under KubeVirt.
 */

export const CANARY_APP_LABEL = 'app.kubernetes.io/name';
export const CANARY_APP = 'virtgate-canary';
export const RUN_LABEL = 'virtgate.io/canary-run';
export const NODE_LABEL = 'virtgate.io/canary-node';
/** virt-controller labels each launcher pod with its VMI's uid. */
export const CREATED_BY_LABEL = 'kubevirt.io/created-by';

export const VMI_API = { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances' } as const;

export const GUEST_MEMORY = '64Mi';

export interface CanaryVmiOptions {
  runId: string;
  namespace: string;
  diskImage: string;
  diskPullPolicy: string;
  /** The nonce: the guest prints it back (canary/guest/marker.ts). */
  firmwareUuid: string;
  keys: NodeKeys;
}

/** Short and stable per node: node names can be 253 characters, a label value 63. */
function nodeHash(node: string): string {
  return createHash('sha256').update(node).digest('hex').slice(0, 10);
}

/** `canary-<hash of the node>-<runId>`, at most 63 characters (the VMI becomes the launcher pod's hostname). */
export function vmiName(node: string, runId: string): string {
  return `canary-${nodeHash(node)}-${runId}`.slice(0, 63).replace(/-+$/, '');
}

/** A label value: the node's name when it fits (63 characters, alphanumeric at both ends), its hash otherwise. */
export function nodeLabelValue(node: string): string {
  return node.length <= 63 && /^[a-z0-9A-Z]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$/.test(node) ? node : nodeHash(node);
}

export function canaryVmi(picked: PickedNode, options: CanaryVmiOptions): Record<string, unknown> {
  return {
    apiVersion: `${VMI_API.group}/${VMI_API.version}`,
    kind: 'VirtualMachineInstance',
    metadata: {
      name: vmiName(picked.node, options.runId),
      namespace: options.namespace,
      labels: { [CANARY_APP_LABEL]: CANARY_APP, [RUN_LABEL]: options.runId, [NODE_LABEL]: nodeLabelValue(picked.node) },
    },
    spec: {
      // Deleting it must end it at once: the guest holds no state.
      terminationGracePeriodSeconds: 0,
      nodeSelector: { 'kubernetes.io/hostname': picked.hostname },
      // A node is picked only when its report says ready, and the agent then removes virtgate's
      // not-ready taint; this covers the seconds between the report and the taint's removal.
      tolerations: [{ key: options.keys.notReadyTaint, operator: 'Exists' }],
      domain: {
        cpu: { cores: 1 },
        firmware: { uuid: options.firmwareUuid },
        resources: { requests: { memory: GUEST_MEMORY } },
        devices: {
          autoattachPodInterface: false,
          autoattachGraphicsDevice: false,
          autoattachMemBalloon: false,
          logSerialConsole: true,
          disks: [{ name: 'canary', disk: { bus: 'virtio' } }],
        },
      },
      volumes: [{ name: 'canary', containerDisk: { image: options.diskImage, imagePullPolicy: options.diskPullPolicy } }],
    },
  };
}
