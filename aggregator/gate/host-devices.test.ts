import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HostDevices } from '../../core/report/host-devices.ts';
import { healthyCluster, listed, NOW, rawKubeVirt, rawNode, rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import { parsePermittedHostDevices } from '../model/permitted-host-devices.ts';
import type { ClusterSnapshot } from '../model/snapshot.ts';
import { DEFAULT_VERSIONS_FILE } from '../versions/load.ts';
import { parseVersionData } from '../versions/parse.ts';
import { gate } from './gate.ts';

const DATA = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');
const placed = { nodeSelector: { 'virtgate.io/ready': 'true' } };

const A10 = { pciVendorSelector: '10de:2236', resourceName: 'nvidia.com/GA102GL_A10' };
const RTX = { pciVendorSelector: '10DE:2204', resourceName: 'nvidia.com/GA102_RTX3090' };

const inventory = (pci: HostDevices['pci'], mediated: HostDevices['mediated'] = [], extra: Partial<HostDevices> = {}): HostDevices => ({ iommu: true, functions: 40, truncated: false, pci, mediated, ...extra });
const a10Ready: HostDevices = inventory([{ selector: '10DE:2236', class: '030200', state: 'vfio-ready', count: 2 }]);
const a10OnNvidia: HostDevices = inventory([{ selector: '10DE:2236', class: '030200', state: 'bound-to-host-driver', count: 1, driver: 'nvidia' }]);
const rtxShared: HostDevices = inventory([
  { selector: '10DE:2204', class: '030000', state: 'group-not-viable', count: 1, blocker: '0000:01:00.1 (10DE:1AEF) in IOMMU group 14 is bound to snd_hda_intel' },
  { selector: '10DE:1AEF', class: '040300', state: 'bound-to-host-driver', count: 1, driver: 'snd_hda_intel' },
]);
const noGpu: HostDevices = inventory([{ selector: '8086:1572', class: '020000', state: 'bound-to-host-driver', count: 2, driver: 'i40e' }]);

function cluster(permitted: unknown, inventories: Record<string, HostDevices | undefined>, readyOverride: Record<string, boolean> = {}): ClusterSnapshot {
  const names = Object.keys(inventories);
  return healthyCluster({
    nodes: names.map((name) => rawNode(name, { labels: { 'virtgate.io/ready': 'true', 'virtgate.io/cpu-vendor': 'intel' } })),
    nodeValidations: names.map((name) => rawReport(name, { ready: readyOverride[name] ?? true, hostDevices: inventories[name] })),
    kubevirt: listed(rawKubeVirt({ nodePlacement: placed, permittedHostDevices: permitted })),
  });
}

const judge = (snapshot: ClusterSnapshot) => {
  const result = gate(snapshot, DATA, DEFAULT_GATE_CONFIG, NOW);
  const check = result.checks.find((candidate) => candidate.id === 'kubevirt.host-devices');
  if (!check) throw new Error('no kubevirt.host-devices');
  return { check, availability: result.hostDevices };
};

describe('parsePermittedHostDevices (KubeVirt v1.9.0 field names)', () => {
  it('reads pciHostDevices and mediatedDevices, upper-cases selectors, keeps externalResourceProvider, drops malformed entries', () => {
    expect(
      parsePermittedHostDevices({
        pciHostDevices: [A10, { ...RTX, externalResourceProvider: true }, { pciVendorSelector: 'nvidia', resourceName: 'x/y' }, { resourceName: 'no/selector' }, 'junk'],
        mediatedDevices: [{ mdevNameSelector: 'GRID T4-1Q', resourceName: 'nvidia.com/GRID_T4-1Q' }, { mdevNameSelector: 'x' }],
      }),
    ).toEqual([
      { kind: 'pci', selector: '10DE:2236', written: '10de:2236', resourceName: 'nvidia.com/GA102GL_A10', external: false },
      { kind: 'pci', selector: '10DE:2204', written: '10DE:2204', resourceName: 'nvidia.com/GA102_RTX3090', external: true },
      { kind: 'pci', selector: null, written: 'nvidia', resourceName: 'x/y', external: false },
      { kind: 'mediated', name: 'GRID_T4-1Q', resourceName: 'nvidia.com/GRID_T4-1Q', external: false },
    ]);
    expect(parsePermittedHostDevices(undefined)).toEqual([]);
    expect(parsePermittedHostDevices({ pciHostDevices: 'nope' })).toEqual([]);
  });
});

describe('kubevirt.host-devices', () => {
  it('passes when nothing is permitted', () => {
    expect(judge(cluster(undefined, { 'node-a': a10Ready, 'node-b': noGpu })).check).toMatchObject({ status: 'pass', message: expect.stringContaining('permits no host devices') });
  });

  it('fails a device no ready node provides, with each node\'s reason', () => {
    const { check, availability } = judge(cluster({ pciHostDevices: [RTX] }, { 'node-a': rtxShared, 'node-b': noGpu, 'node-c': a10OnNvidia }));
    expect(check.status).toBe('fail');
    expect(check.message).toContain('nvidia.com/GA102_RTX3090 (10DE:2204)');
    expect(check.message).toContain('node-a: IOMMU group not viable: 0000:01:00.1 (10DE:1AEF) in IOMMU group 14 is bound to snd_hda_intel');
    expect(check.message).toContain('node-b: device absent');
    expect(availability).toEqual([expect.objectContaining({ resource: 'nvidia.com/GA102_RTX3090', nodes: 0, devices: 0 })]);
  });

  it('names a device on a host driver "not bound to vfio-pci"', () => {
    const { check } = judge(cluster({ pciHostDevices: [A10] }, { 'node-a': a10OnNvidia, 'node-b': noGpu }));
    expect(check.status).toBe('fail');
    expect(check.message).toContain('node-a: not bound to vfio-pci (bound to nvidia)');
  });

  it('passes with one providing node, and counts several', () => {
    const one = judge(cluster({ pciHostDevices: [A10] }, { 'node-a': a10Ready, 'node-b': noGpu, 'node-c': a10OnNvidia }));
    expect(one.check.status).toBe('pass');
    expect(one.availability).toEqual([expect.objectContaining({ nodes: 1, devices: 2, providers: ['node-a'], reasons: ['node-b: device absent', 'node-c: not bound to vfio-pci (bound to nvidia)'] })]);
    const several = judge(cluster({ pciHostDevices: [A10] }, { 'node-a': a10Ready, 'node-b': a10Ready, 'node-c': a10Ready }));
    expect(several.check).toMatchObject({ status: 'pass', message: expect.stringContaining('nvidia.com/GA102GL_A10 on 3 nodes (6 devices)') });
  });

  it('counts only ready nodes: a vfio-ready GPU on a node that is not ready provides nothing', () => {
    const { check, availability } = judge(cluster({ pciHostDevices: [A10] }, { 'node-a': a10Ready, 'node-b': noGpu }, { 'node-a': false }));
    expect(check.status).toBe('fail');
    expect(availability?.[0]?.nodes).toBe(0);
  });

  it('reports externalResourceProvider entries as not judged', () => {
    const { check } = judge(cluster({ pciHostDevices: [{ ...RTX, externalResourceProvider: true }] }, { 'node-a': noGpu }));
    expect(check).toMatchObject({ status: 'pass', message: expect.stringContaining('not judged') });
  });

  it('mediated devices: provided where instances exist or are available', () => {
    const vgpu = (available: number, created: number) => inventory([], [{ name: 'GRID_T4-1Q', type: 'nvidia-222', available, created }]);
    const permitted = { mediatedDevices: [{ mdevNameSelector: 'GRID T4-1Q', resourceName: 'nvidia.com/GRID_T4-1Q' }] };
    expect(judge(cluster(permitted, { 'node-a': vgpu(0, 0), 'node-b': noGpu })).check).toMatchObject({ status: 'fail', message: expect.stringContaining('no instance created and none available') });
    expect(judge(cluster(permitted, { 'node-a': vgpu(14, 2), 'node-b': noGpu })).availability).toEqual([expect.objectContaining({ nodes: 1, devices: 16 })]);
  });

  it('a function whose id the agent could not read provides no entry, even vfio-ready; the node is told it could be the device', () => {
    // What an agent reports for a vfio-ready function whose uevent, vendor, device and class files could not be read.
    const unreadId = inventory([{ unread: 'uevent (EISDIR), vendor (ENOENT), device (ENOENT), class (ENOENT)', state: 'vfio-ready', count: 1 }]);
    const { check, availability } = judge(cluster({ pciHostDevices: [A10, { pciVendorSelector: '0000:0000', resourceName: 'example.com/zero' }] }, { 'node-a': unreadId }));
    expect(check.status).toBe('fail');
    expect(availability).toEqual([
      expect.objectContaining({ resource: 'nvidia.com/GA102GL_A10', nodes: 0, devices: 0, reasons: ['node-a: device absent among the functions whose id was read; 1 function(s) of unread id could be it'] }),
      expect.objectContaining({ resource: 'example.com/zero', nodes: 0, devices: 0 }),
    ]);
  });

  it('a node whose report has no inventory says so', () => {
    const { check } = judge(cluster({ pciHostDevices: [A10] }, { 'node-a': undefined }));
    expect(check.message).toContain('node-a: no passthrough inventory in its report');
  });

  it('is unknown without KubeVirt, and without ready nodes', () => {
    expect(judge(healthyCluster({ kubevirt: { state: 'crd-absent' } })).check.status).toBe('unknown');
    expect(judge(cluster({ pciHostDevices: [A10] }, { 'node-a': a10Ready }, { 'node-a': false })).check.status).toBe('unknown');
  });
});
