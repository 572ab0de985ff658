/**
 * nodes.migration-pairs through the running aggregator, against the real API server: four ready
 * nodes (two identical Intel, one Intel strict superset, one AMD), first without KubeVirt's CRDs
 * (the check works from the NodeValidation reports alone), then with KubeVirt's CRDs and a running
 * LiveMigrate VMI on the AMD node, which the check counts. The VMI CRD is a minimal fixture.
 */
import { ApiextensionsV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createKubeVirt, createValidatedNode, createVmi, installKubeVirtCrds, removeOptionalCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { check, type Harness, startAggregator } from '../lab/support/aggregator-harness.ts';
import { installCrd } from '../lab/support/crds.ts';

const cp = useControlPlane();
let admin: KubeConfig;
let harness: Harness;
const clock = new Date('2026-12-02T12:00:00Z');
const heartbeatAt = new Date(clock.getTime() - 60_000);

const READY = { 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware' };
const INTEL = ['aes', 'avx', 'avx2', 'fma', 'pclmulqdq', 'sse4_1', 'sse4_2', 'ssse3', 'xsave'];
const INTEL_PLUS = [...INTEL, 'amx_bf16', 'amx_tile', 'avx512f'].sort();
const AMD = ['aes', 'avx', 'avx2', 'fma', 'sse4_1', 'sse4_2', 'sse4a', 'ssse3'];
const NODES = [
  { name: 'agg-mig-intel-1', vendor: 'intel', cpuFeatures: INTEL },
  { name: 'agg-mig-intel-2', vendor: 'intel', cpuFeatures: INTEL },
  { name: 'agg-mig-intel-plus', vendor: 'intel', cpuFeatures: INTEL_PLUS },
  { name: 'agg-mig-amd', vendor: 'amd', cpuFeatures: AMD },
] as const;

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
  await removeOptionalCrds(admin);
  await resetCluster(admin);
  harness = await startAggregator(admin, { now: () => clock });
});

afterAll(async () => {
  await harness?.stop();
  // Leave no VMI CRD behind for the files that run after this one.
  await removeOptionalCrds(admin);
  await resetCluster(admin);
});

describe('nodes.migration-pairs in a real control plane', () => {
  it('names the AMD node and the superset Intel node as stranded, from the reports alone (no KubeVirt CRDs)', async () => {
    for (const spec of NODES) {
      await createValidatedNode(admin, spec.name, { node: { labels: { ...READY, 'virtgate.io/cpu-vendor': spec.vendor } }, report: { heartbeatAt, vendor: spec.vendor, cpuFeatures: [...spec.cpuFeatures] } });
    }
    const report = await harness.waitForGate('the four nodes to be assessed', (gate) => gate.readiness.counts.ready === 4);
    const migration = check(report, 'nodes.migration-pairs');
    expect(migration.status).toBe('warn');
    expect(migration.message).toMatch(/^2 ready nodes have no live-migration target/);
    expect(migration.message).toContain('agg-mig-amd (amd): no other ready amd node');
    expect(migration.message).toContain('agg-mig-intel-plus (intel): the nearest intel candidate agg-mig-intel-1 lacks amx_bf16, amx_tile, avx512f');
    expect(migration.message).not.toContain('agg-mig-intel-1 (intel)');
    expect(migration.message).not.toContain('agg-mig-intel-2 (intel)');
    expect(migration.evidence).toMatchObject({ readyNodes: 4, strandedNodes: 2, featureSources: { report: 4 }, vmis: { state: 'crd-absent' } });
    // Each identical Intel node has the other and the superset node as targets.
    expect(Object.fromEntries(report.readiness.nodes.map((node) => [node.name, node.migrationTargets]))).toEqual({
      'agg-mig-intel-1': 2,
      'agg-mig-intel-2': 2,
      'agg-mig-intel-plus': 0,
      'agg-mig-amd': 0,
    });
  });

  it("with KubeVirt's CRDs, counts the running VMIs a drain of the AMD node must live-migrate, and no other", async () => {
    await installKubeVirtCrds(admin, { cdi: false, vmis: { kubeconfig: cp.adminKubeconfig } });
    // The cluster-wide default for VMIs that set none (virt-api would write it into their spec on create).
    await createKubeVirt(admin, { name: 'agg-mig', version: 'v1.9.0', nodePlacement: { nodeSelector: READY }, evictionStrategy: 'LiveMigrate' });
    await createVmi(admin, { name: 'web-1', namespace: 'agg-mig-vms', nodeName: 'agg-mig-amd' });
    await createVmi(admin, { name: 'batch-1', namespace: 'agg-mig-vms', nodeName: 'agg-mig-amd', evictionStrategy: 'None' });
    await createVmi(admin, { name: 'cache-1', namespace: 'agg-mig-vms', nodeName: 'agg-mig-amd', evictionStrategy: 'LiveMigrateIfPossible', liveMigratable: 'True' });
    await createVmi(admin, { name: 'scratch-1', namespace: 'agg-mig-vms', nodeName: 'agg-mig-amd', evictionStrategy: 'LiveMigrateIfPossible', liveMigratable: 'False' });
    await createVmi(admin, { name: 'legacy-1', namespace: 'agg-mig-vms', nodeName: 'agg-mig-amd', evictionStrategy: null });
    await createVmi(admin, { name: 'db-1', namespace: 'agg-mig-vms', nodeName: 'agg-mig-intel-1' });
    const report = await harness.waitForGate('the VMIs to be counted', (gate) => {
      const vmis = check(gate, 'nodes.migration-pairs').evidence.vmis as { state?: string; total?: number } | undefined;
      return vmis?.state === 'listed' && vmis.total === 6 && gate.versions.kubevirt.state === 'known';
    });
    const migration = check(report, 'nodes.migration-pairs');
    // web-1 (LiveMigrate), cache-1 (LiveMigrateIfPossible, migratable), legacy-1 (the cluster's LiveMigrate).
    expect(migration.evidence).toMatchObject({ strandedNodes: 2, vmis: { state: 'listed', total: 6, liveMigrateOnStranded: 3 } });
    expect(migration.message).toContain('agg-mig-amd (amd): no other ready amd node; a drain of agg-mig-amd would wait on 3 running VMs that must live-migrate (evictionStrategy LiveMigrate)');
    expect(migration.message).toMatch(/3 running VMs on them must live-migrate on a drain and cannot\.$/);
    expect(report.aggregator.watches.map((watch) => watch.kind)).toContain('virtualmachineinstances');
    // Deleting the VMI CRD stops the watch; the check goes back to the reports alone.
    await admin.makeApiClient(ApiextensionsV1Api).deleteCustomResourceDefinition({ name: 'virtualmachineinstances.kubevirt.io' });
    const after = await harness.waitForGate('the VMI CRD to be gone', (gate) => (check(gate, 'nodes.migration-pairs').evidence.vmis as { state?: string }).state === 'crd-absent');
    expect(check(after, 'nodes.migration-pairs')).toMatchObject({ status: 'warn', evidence: { strandedNodes: 2 } });
  });
});
