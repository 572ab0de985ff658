/**
 * kubevirt.host-devices through the running aggregator, against the real API server with
 * KubeVirt's own CRD (v1.9.0, whose schema checks permittedHostDevices) and the chart's
 * NodeValidation CRD (whose schema checks status.hostDevices). Each node's inventory is what
 * virtgate's probe reads from a fixture host (test/lab/hosts), not a literal; which nodes provide
 * each device is worked out by hand from those hosts: gpu-vfio has an A10 (10DE:2236) on vfio-pci
 * alone in its group; gpu-shared-group has an RTX 3090 (10DE:2204) on vfio-pci whose group also
 * holds its audio function on snd_hda_intel; pci-500 has neither GPU.
 */
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateResponse } from '../../aggregator/documents/api.ts';
import { hostDevicesOf } from '../../core/checks/families/passthrough.ts';
import { probeHost } from '../../core/checks/probe-host.ts';
import type { HostDevices } from '../../core/report/host-devices.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { buildHost, type HostProfile } from '../lab/hosts/build-host.ts';
import { tempDir } from '../lab/hosts/paths.ts';
import { createKubeVirt, createValidatedNode, installKubeVirtCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { check, type Harness, nodeNames, startAggregator } from '../lab/support/aggregator-harness.ts';
import { installCrd } from '../lab/support/crds.ts';

const cp = useControlPlane();
let admin: KubeConfig;
let harness: Harness;
let removeHosts = async () => {};
const clock = new Date('2026-12-02T12:00:00Z');
const inventories = new Map<HostProfile, HostDevices>();

const READY_LABELS = { 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware', 'virtgate.io/cpu-vendor': 'intel' };
const A10 = { pciVendorSelector: '10DE:2236', resourceName: 'nvidia.com/GA102GL_A10' };
const RTX = { pciVendorSelector: '10DE:2204', resourceName: 'nvidia.com/GA102_RTX3090' };

beforeAll(async () => {
  const { dir, remove } = await tempDir('gate-host-devices');
  removeHosts = remove;
  for (const profile of ['gpu-vfio', 'gpu-shared-group', 'pci-500'] as const) {
    const host = await buildHost(path.join(dir, profile), profile);
    const devices = hostDevicesOf(await probeHost(host.root, { enabled: false }));
    if (!devices) throw new Error(`the probe found no passthrough inventory on ${profile}`);
    inventories.set(profile, devices);
  }
  admin = cp.adminConfig();
  await installCrd(admin);
  await installKubeVirtCrds(admin);
  await resetCluster(admin);
  harness = await startAggregator(admin, { now: () => clock });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  await removeHosts();
});

/** A fresh cluster with one ready node per host profile and a KubeVirt that permits `permitted`. */
async function run(id: string, hosts: HostProfile[], permitted: Record<string, unknown>): Promise<GateResponse> {
  await resetCluster(admin);
  await harness.waitForGate(`${id}: an empty cluster`, (report) => report.readiness.total === 0 && report.versions.kubevirt.state === 'absent');
  const names: string[] = [];
  for (const [index, profile] of hosts.entries()) {
    const name = `hd-${id}-${index}-${profile}`;
    names.push(name);
    await createValidatedNode(admin, name, { node: { labels: READY_LABELS }, report: { heartbeatAt: new Date(clock.getTime() - 60_000), hostDevices: inventories.get(profile) as unknown as Record<string, unknown> } });
  }
  await createKubeVirt(admin, { name: `hd-${id}`, version: 'v1.9.0', nodePlacement: { nodeSelector: { 'virtgate.io/ready': 'true' } }, permittedHostDevices: permitted });
  names.sort();
  return harness.waitForGate(`${id}: the report to cover the scenario`, (report) =>
    JSON.stringify(nodeNames(report)) === JSON.stringify(names) &&
    report.readiness.counts.ready === names.length &&
    check(report, 'kubevirt.deployed').evidence.object === `kubevirt/hd-${id}` &&
    (report.hostDevices?.length ?? 0) > 0,
  );
}

const availability = (report: GateResponse, resource: string) => report.hostDevices?.find((entry) => entry.resource === resource);

describe('kubevirt.host-devices against the real API server', () => {
  it('a permitted device no ready node provides fails, naming each node and why', async () => {
    const report = await run('none', ['gpu-shared-group', 'pci-500'], { pciHostDevices: [A10, RTX] });
    const gate = check(report, 'kubevirt.host-devices');
    expect(gate.status).toBe('fail');
    expect(availability(report, A10.resourceName)).toMatchObject({ nodes: 0, devices: 0 });
    expect(availability(report, RTX.resourceName)).toMatchObject({ nodes: 0, devices: 0 });
    expect(gate.message).toContain('hd-none-0-gpu-shared-group: IOMMU group not viable: 0000:01:00.1 (10DE:1AEF) in IOMMU group 14 is bound to snd_hda_intel');
    expect(gate.message).toContain('hd-none-1-pci-500: device absent');
    expect(report.result).toBe('fail');
  });

  it('one providing node passes, and names it', async () => {
    const report = await run('one', ['gpu-vfio', 'gpu-shared-group', 'pci-500'], { pciHostDevices: [A10] });
    expect(check(report, 'kubevirt.host-devices')).toMatchObject({ status: 'pass', message: expect.stringContaining('nvidia.com/GA102GL_A10 on 1 node (1 device)') });
    expect(availability(report, A10.resourceName)).toMatchObject({ nodes: 1, devices: 1, providers: ['hd-one-0-gpu-vfio'] });
  });

  it('several providing nodes are counted; an external provider is not judged', async () => {
    const report = await run('many', ['gpu-vfio', 'gpu-vfio', 'gpu-vfio'], { pciHostDevices: [A10, { ...RTX, externalResourceProvider: true }] });
    expect(check(report, 'kubevirt.host-devices')).toMatchObject({ status: 'pass', message: expect.stringContaining('nvidia.com/GA102GL_A10 on 3 nodes (3 devices)') });
    expect(check(report, 'kubevirt.host-devices').message).toContain('not judged');
    expect(availability(report, RTX.resourceName)).toMatchObject({ external: true });
  });
});
