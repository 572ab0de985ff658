import { describe, expect, it } from 'vitest';
import { readNodeResources, readPodRequests, requestsByNode } from './node-view.ts';

const GiB = 2 ** 30;

describe('readPodRequests: what a pod holds on its node, as the scheduler counts it (NodeResourcesFit)', () => {
  it('sums the containers, takes the largest init container when it is larger, adds sidecars and the pod overhead', () => {
    const pod = {
      spec: {
        nodeName: 'n1',
        containers: [{ resources: { requests: { cpu: '250m', memory: '1Gi' } } }, { resources: { requests: { cpu: '250m' }, limits: { 'devices.kubevirt.io/kvm': '1' } } }],
        initContainers: [{ resources: { requests: { cpu: '2' } } }, { restartPolicy: 'Always', resources: { requests: { memory: '256Mi' } } }],
        overhead: { memory: '64Mi' },
      },
      status: { phase: 'Running' },
    };
    // cpu: max(0.5 containers, 2 init) = 2; memory: 1Gi + 256Mi sidecar + 64Mi overhead; kvm: its limit.
    expect(readPodRequests(pod)).toEqual({ nodeName: 'n1', requests: { cpu: 2, memory: GiB + 320 * 2 ** 20, 'devices.kubevirt.io/kvm': 1 } });
  });

  it('ended and unbound pods hold nothing; malformed ones are skipped', () => {
    expect(readPodRequests({ spec: { nodeName: 'n1', containers: [] }, status: { phase: 'Succeeded' } })).toBeNull();
    expect(readPodRequests({ spec: { containers: [] } })).toBeNull();
    expect(readPodRequests('pod')).toBeNull();
    expect(readPodRequests({ spec: { nodeName: 'n1', containers: [{ resources: { requests: { cpu: 'lots' } } }] } })).toEqual({ nodeName: 'n1', requests: {} });
  });

  it("leaves out the explained VMI's own pods, by their kubevirt.io/created-by label", () => {
    const pod = (uid: string) => readPodRequests({ metadata: { labels: { 'kubevirt.io/created-by': uid } }, spec: { nodeName: 'a', containers: [{ resources: { requests: { cpu: '1' } } }] } });
    expect(Object.fromEntries(requestsByNode([pod('vmi-1'), pod('vmi-2')], 'vmi-1'))).toEqual({ a: { cpu: 1 } });
  });

  it('adds the pods of each node', () => {
    const byNode = requestsByNode([{ nodeName: 'a', requests: { cpu: 1 } }, null, { nodeName: 'a', requests: { cpu: 0.5, memory: 10 } }, { nodeName: 'b', requests: { cpu: 2 } }]);
    expect(Object.fromEntries(byNode)).toEqual({ a: { cpu: 1.5, memory: 10 }, b: { cpu: 2 } });
  });
});

describe('readNodeResources', () => {
  it('reads allocatable in base units and the cordon', () => {
    const read = readNodeResources({ metadata: { name: 'n1' }, spec: { unschedulable: true }, status: { allocatable: { cpu: '3800m', memory: '15Gi', 'hugepages-1Gi': '0', 'devices.kubevirt.io/kvm': '1k' } } });
    expect(read?.unschedulable).toBe(true);
    expect(read?.allocatable).toEqual({ cpu: 3.8, memory: 15 * GiB, 'hugepages-1Gi': 0, 'devices.kubevirt.io/kvm': 1000 });
    expect(readNodeResources({ metadata: {} })).toBeNull();
  });
});
