import { describe, expect, it } from 'vitest';
import { nodeKeys } from '../core/kube/names.ts';
import { canaryVmi, nodeLabelValue, vmiName } from './vmi.ts';

const PICKED = { node: 'worker-1', hostname: 'worker-1.example.com', nodeClass: 'c', previous: undefined, classFailedRunsBefore: 0 };
const OPTIONS = {
  runId: 'mib2x9k0-3f4a',
  namespace: 'virtgate-canary',
  diskImage: 'registry.example/virtgate/canary-disk:0.1.0',
  diskPullPolicy: 'IfNotPresent',
  firmwareUuid: '6a1f3c2e-9b7d-4e21-8f0a-1c2d3e4f5a6b',
  keys: nodeKeys('virtgate.io'),
};

describe('canaryVmi', () => {
  it('is the whole tiny VMI: pinned to the node, no network, console logged, the nonce as firmware UUID', () => {
    expect(canaryVmi(PICKED, OPTIONS)).toEqual({
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachineInstance',
      metadata: {
        name: vmiName('worker-1', 'mib2x9k0-3f4a'),
        namespace: 'virtgate-canary',
        labels: { 'app.kubernetes.io/name': 'virtgate-canary', 'virtgate.io/canary-run': 'mib2x9k0-3f4a', 'virtgate.io/canary-node': 'worker-1' },
      },
      spec: {
        terminationGracePeriodSeconds: 0,
        nodeSelector: { 'kubernetes.io/hostname': 'worker-1.example.com' },
        tolerations: [{ key: 'virtgate.io/not-ready', operator: 'Exists' }],
        domain: {
          cpu: { cores: 1 },
          firmware: { uuid: '6a1f3c2e-9b7d-4e21-8f0a-1c2d3e4f5a6b' },
          resources: { requests: { memory: '64Mi' } },
          devices: {
            autoattachPodInterface: false,
            autoattachGraphicsDevice: false,
            autoattachMemBalloon: false,
            logSerialConsole: true,
            disks: [{ name: 'canary', disk: { bus: 'virtio' } }],
          },
        },
        volumes: [{ name: 'canary', containerDisk: { image: 'registry.example/virtgate/canary-disk:0.1.0', imagePullPolicy: 'IfNotPresent' } }],
      },
    });
  });

  it("tolerates the not-ready taint under the configured prefix", () => {
    const vmi = canaryVmi(PICKED, { ...OPTIONS, keys: nodeKeys('vg.example.com') }) as { spec: { tolerations: unknown } };
    expect(vmi.spec.tolerations).toEqual([{ key: 'vg.example.com/not-ready', operator: 'Exists' }]);
  });
});

describe('names', () => {
  it('a VMI name is a DNS label of at most 63 characters, the same for a node in one run and different across nodes', () => {
    const long = vmiName('n'.repeat(253), 'mib2x9k0-3f4a');
    expect(long).toMatch(/^canary-[0-9a-f]{10}-mib2x9k0-3f4a$/);
    expect(long.length).toBeLessThanOrEqual(63);
    expect(vmiName('worker-1', 'r1')).toBe(vmiName('worker-1', 'r1'));
    expect(vmiName('worker-1', 'r1')).not.toBe(vmiName('worker-2', 'r1'));
  });

  it('the node label is the node name when it fits a label value, its hash otherwise', () => {
    expect(nodeLabelValue('worker-1')).toBe('worker-1');
    expect(nodeLabelValue('a'.repeat(64))).toMatch(/^[0-9a-f]{10}$/);
    expect(nodeLabelValue('node.with.dots-')).toMatch(/^[0-9a-f]{10}$/);
  });
});
