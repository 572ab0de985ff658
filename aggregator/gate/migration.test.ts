import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import type { ClusterSnapshot, CustomResourceObservation } from '../model/snapshot.ts';
import { healthyCluster, listed, NOW, rawNode, rawReport } from '../../test/fixtures/aggregator/cluster-fixtures.ts';
import { DEFAULT_VERSIONS_FILE } from '../versions/load.ts';
import { parseVersionData } from '../versions/parse.ts';
import { gate } from './gate.ts';
import { labelFeatures, offersUso } from './migration.ts';
import type { GateReport } from './types.ts';

const DATA = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');

const BASE = ['aes', 'avx', 'avx2', 'sse4_2'];
const SUPERSET = [...BASE, 'amx_tile', 'avx512f'];

interface Spec {
  name: string;
  vendor?: 'intel' | 'amd' | 'arm';
  features?: string[] | null;
  kernel?: string;
  labels?: Record<string, string>;
  ready?: boolean;
}

function cluster(specs: Spec[], vmis?: CustomResourceObservation): ClusterSnapshot {
  const reports = specs.map((spec) => {
    const report = rawReport(spec.name, { vendor: spec.vendor ?? 'intel', ready: spec.ready ?? true });
    const status = report.status as Record<string, unknown>;
    status.kernel = spec.kernel ?? '5.14';
    if (spec.features !== null) status.cpuFeatures = spec.features ?? BASE;
    return report;
  });
  return healthyCluster({
    nodes: specs.map((spec) => rawNode(spec.name, { labels: { 'virtgate.io/ready': String(spec.ready ?? true), ...spec.labels } })),
    nodeValidations: reports,
    ...(vmis ? { vmis } : {}),
  });
}

function migration(snapshot: ClusterSnapshot): { report: GateReport; check: GateReport['checks'][number]; targets: Record<string, number | null> } {
  const report = gate(snapshot, DATA, DEFAULT_GATE_CONFIG, NOW);
  const check = report.checks.find((candidate) => candidate.id === 'nodes.migration-pairs');
  if (!check) throw new Error('no nodes.migration-pairs');
  return { report, check, targets: Object.fromEntries(report.readiness.nodes.map((node) => [node.name, node.migrationTargets])) };
}

const vmi = (name: string, nodeName: string, phase = 'Running', evictionStrategy: string | null = 'LiveMigrate') => ({
  apiVersion: 'kubevirt.io/v1',
  kind: 'VirtualMachineInstance',
  metadata: { name, namespace: 'vms' },
  spec: evictionStrategy === null ? {} : { evictionStrategy },
  status: { nodeName, phase },
});

describe('nodes.migration-pairs: targets by vendor, features and the kernel USO offer', () => {
  it('two identical Intel nodes, a strict superset, an AMD node: the superset and the AMD node are stranded, by name', () => {
    const { check, targets } = migration(
      cluster([{ name: 'intel-a' }, { name: 'intel-b' }, { name: 'intel-plus', features: SUPERSET }, { name: 'amd-a', vendor: 'amd', features: ['aes', 'avx', 'sse4a'] }]),
    );
    expect(targets).toEqual({ 'intel-a': 2, 'intel-b': 2, 'intel-plus': 0, 'amd-a': 0 });
    expect(check.status).toBe('warn');
    expect(check.message).toMatch(/^2 ready nodes have no live-migration target/);
    expect(check.message).toContain('amd-a (amd): no other ready amd node');
    expect(check.message).toContain('intel-plus (intel): the nearest intel candidate intel-a lacks amx_tile, avx512f');
    expect(check.evidence).toMatchObject({ readyNodes: 4, strandedNodes: 2, featureSources: { report: 4 }, vmis: { state: 'unknown' } });
  });

  it('every node with a partner passes, and says how few targets the poorest node has', () => {
    const { check, targets } = migration(cluster([{ name: 'a' }, { name: 'b' }, { name: 'c' }]));
    expect(targets).toEqual({ a: 2, b: 2, c: 2 });
    expect(check).toMatchObject({ status: 'pass', message: 'every ready node (3) has a live-migration target (at least 2)' });
  });

  it('a 6.8 node and a 5.14 node with the same CPU are not partners (virtio-net USO, kubevirt#16386)', () => {
    const { check, targets } = migration(cluster([{ name: 'new', kernel: '6.8' }, { name: 'old', kernel: '5.14' }]));
    expect(targets).toEqual({ new: 0, old: 0 });
    expect(check.message).toContain('new (intel): the nearest intel candidate old lacks virtio-net USO offered (kernel 6.8 vs 5.14)');
    expect(check.message).toContain('old (intel): the nearest intel candidate new lacks virtio-net USO not offered (kernel 5.14 vs 6.8)');
    // Both above 6.2: partners again.
    expect(migration(cluster([{ name: 'x', kernel: '6.8' }, { name: 'y', kernel: '6.12' }])).check.status).toBe('pass');
  });

  it("KubeVirt's labels win over the reports when both nodes of a pair have them", () => {
    const labels = (extra: string[] = []) =>
      Object.fromEntries([...['sse4.1', 'avx2', ...extra].map((f) => [`cpu-feature.node.kubevirt.io/${f}`, 'true']), ['host-model-cpu.node.kubevirt.io/Skylake-Server-IBRS', 'true']]);
    // The reports would say k2 lacks avx512f; the labels say k2 is a superset.
    const { targets, check } = migration(
      cluster([
        { name: 'k1', features: SUPERSET, labels: labels() },
        { name: 'k2', features: BASE, labels: labels(['avx512-vnni']) },
      ]),
    );
    expect(targets).toEqual({ k1: 1, k2: 0 });
    expect(check.message).toContain('k2 (intel): the nearest intel candidate k1 lacks avx512-vnni');
    expect(check.evidence).toMatchObject({ featureSources: { 'kubevirt-labels': 2 } });
    // A different host model is a different CPU to KubeVirt.
    const other = { ...labels(), 'host-model-cpu.node.kubevirt.io/Skylake-Server-IBRS': 'false', 'host-model-cpu.node.kubevirt.io/Icelake-Server': 'true' };
    expect(migration(cluster([{ name: 'k1', labels: labels() }, { name: 'k3', labels: other }])).targets).toEqual({ k1: 0, k3: 0 });
  });

  it('a node without cpuFeatures (an older agent) is compared by vendor and kernel only, and says so', () => {
    const { check, targets } = migration(cluster([{ name: 'old-agent', features: null }, { name: 'b' }]));
    expect(targets).toEqual({ 'old-agent': 1, b: 1 });
    expect(check.status).toBe('pass');
    expect(check.message).toMatch(/compared by vendor and kernel only/);
    expect(check.evidence).toMatchObject({ unverified: ['b', 'old-agent'] });
  });

  it('counts targets per node in a large group (each node less itself), and lists a few', () => {
    const specs: Spec[] = Array.from({ length: 300 }, (_, n) => ({ name: `same-${String(n).padStart(3, '0')}` }));
    const { report, targets } = migration(cluster([...specs, { name: 'plus', features: SUPERSET }]));
    expect(targets['same-000']).toBe(300);
    expect(targets['same-299']).toBe(300);
    expect(targets.plus).toBe(0);
    expect(report.readiness.nodes.filter((node) => node.migrationTargets === 300)).toHaveLength(300);
  });

  it('not-ready nodes are neither stranded nor targets', () => {
    const { targets } = migration(cluster([{ name: 'a' }, { name: 'b' }, { name: 'down', ready: false }]));
    expect(targets).toEqual({ a: 1, b: 1, down: null });
  });

  it('counts running LiveMigrate VMIs on stranded nodes only: "draining X would stop N"', () => {
    const vmis = listed(
      vmi('on-amd', 'amd-a'),
      vmi('on-amd-2', 'amd-a'),
      vmi('manual', 'amd-a', 'Running', 'None'),
      vmi('pending', 'amd-a', 'Scheduling'),
      vmi('default-strategy', 'amd-a', 'Running', null),
      vmi('on-intel', 'intel-a'),
    );
    const { check } = migration(cluster([{ name: 'intel-a' }, { name: 'intel-b' }, { name: 'amd-a', vendor: 'amd' }], vmis));
    expect(check.message).toContain('amd-a (amd): no other ready amd node; draining amd-a would stop 2 running LiveMigrate VMs');
    expect(check.message).toMatch(/2 running LiveMigrate VMs on them cannot move\.$/);
    expect(check.evidence).toMatchObject({ vmis: { state: 'listed', liveMigrateOnStranded: 2 } });
    // Without KubeVirt's CRD, the check works from the reports alone.
    const absent = migration(cluster([{ name: 'intel-a' }, { name: 'amd-a', vendor: 'amd' }], { state: 'crd-absent' })).check;
    expect(absent).toMatchObject({ status: 'warn', evidence: { vmis: { state: 'crd-absent' } } });
    expect(absent.message).not.toMatch(/would stop/);
  });
});

describe('migration helpers', () => {
  it('offersUso: 6.2 and later', () => {
    expect([offersUso('5.14'), offersUso('6.1'), offersUso('6.2'), offersUso('6.8.0-45-generic'), offersUso('7.0'), offersUso(null), offersUso('x')]).toEqual([
      false, false, true, true, true, null, null,
    ]);
  });
  it('labelFeatures: only true labels under KubeVirt prefixes; none → null', () => {
    expect(labelFeatures({ 'cpu-feature.node.kubevirt.io/avx2': 'true', 'cpu-feature.node.kubevirt.io/mpx': 'false', 'host-model-cpu.node.kubevirt.io/EPYC': 'true', other: 'true' })).toEqual(
      new Set(['avx2', 'host-model:EPYC']),
    );
    expect(labelFeatures({ 'kubernetes.io/os': 'linux' })).toBeNull();
  });
});
