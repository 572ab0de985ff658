/**
 * Tiny VMIs for the real-node tests, and what KubeVirt says about them: the VMI's phase, its
 * virt-launcher pod and the scheduler's reason, and the guest's own serial console (the
 * launcher pod's `guest-console-log` container, which tails the guest's serial port).
 */
import type { CoreV1Api, CustomObjectsApi, V1Pod } from '@kubernetes/client-node';

export interface TinyVmiOptions {
  name: string;
  namespace: string;
  /** A containerDisk image holding the guest's disk. */
  image: string;
  memory?: string;
  /** Pins the VMI to one node, as a user pins a VM to a host. */
  nodeName?: string;
  /** spec.evictionStrategy: `LiveMigrate` makes a drain of its node migrate it (KubeVirt's default is None). */
  evictionStrategy?: 'LiveMigrate' | 'None';
}

/** One vCPU, no network interface, the guest's disk from a containerDisk, its serial console logged. */
export function tinyVmi(options: TinyVmiOptions): Record<string, unknown> {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: { name: options.name, namespace: options.namespace, labels: { 'app.kubernetes.io/part-of': 'virtgate-node-tests' } },
    spec: {
      terminationGracePeriodSeconds: 0,
      ...(options.evictionStrategy ? { evictionStrategy: options.evictionStrategy } : {}),
      ...(options.nodeName ? { nodeSelector: { 'kubernetes.io/hostname': options.nodeName } } : {}),
      domain: {
        cpu: { cores: 1 },
        resources: { requests: { memory: options.memory ?? '64Mi' } },
        devices: {
          autoattachPodInterface: false,
          autoattachGraphicsDevice: false,
          autoattachMemBalloon: false,
          logSerialConsole: true,
          disks: [{ name: 'guest', disk: { bus: 'virtio' } }],
        },
      },
      volumes: [{ name: 'guest', containerDisk: { image: options.image, imagePullPolicy: 'IfNotPresent' } }],
    },
  };
}

export interface VmiStatus {
  phase?: string;
  nodeName?: string;
  conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
}

const VMI = { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances' } as const;

export async function createVmi(custom: CustomObjectsApi, vmi: Record<string, unknown>): Promise<void> {
  const metadata = vmi.metadata as { namespace: string };
  await custom.createNamespacedCustomObject({ ...VMI, namespace: metadata.namespace, body: vmi });
}

export async function readVmi(custom: CustomObjectsApi, namespace: string, name: string): Promise<{ metadata?: { uid?: string }; status?: VmiStatus }> {
  return (await custom.getNamespacedCustomObject({ ...VMI, namespace, name })) as { metadata?: { uid?: string }; status?: VmiStatus };
}

export async function deleteVmi(custom: CustomObjectsApi, namespace: string, name: string): Promise<void> {
  await custom.deleteNamespacedCustomObject({ ...VMI, namespace, name }).catch(() => undefined);
}

/** The virt-launcher pod KubeVirt made for the VMI (virt-controller labels it with the VMI's uid). */
export async function launcherPod(core: CoreV1Api, namespace: string, vmiUid: string): Promise<V1Pod | undefined> {
  const pods = await core.listNamespacedPod({ namespace, labelSelector: `kubevirt.io/created-by=${vmiUid}` });
  return pods.items.find((p) => !p.metadata?.deletionTimestamp) ?? pods.items[0];
}

/** The scheduler's word on a pending pod: its PodScheduled condition's reason and message. */
export function schedulingVerdict(pod: V1Pod | undefined): { reason?: string; message?: string } {
  const condition = pod?.status?.conditions?.find((c) => c.type === 'PodScheduled');
  return { reason: condition?.reason, message: condition?.message };
}

/**
 * What the guest wrote to its serial port so far, as KubeVirt's guest-console-log container shows
 * it. A failed read throws (a container not started yet, a pod gone): an unread console is not an
 * empty one.
 */
export async function guestConsole(core: CoreV1Api, pod: V1Pod): Promise<string> {
  return launcherLog(core, pod, 'guest-console-log');
}

/** One container's log of a virt-launcher pod (`compute` holds virt-launcher's, libvirt's and QEMU's words). */
export async function launcherLog(core: CoreV1Api, pod: V1Pod, container: 'compute' | 'guest-console-log'): Promise<string> {
  return String(await core.readNamespacedPodLog({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', container }));
}

/** virt-launcher's log lines that carry QEMU's or libvirt's own error, as they were logged. */
export function qemuErrors(computeLog: string): string[] {
  return computeLog.split('\n').filter((line) => /"level":"error"/.test(line) && /qemu|kvm|libvirt/i.test(line));
}
