import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import type { ClusterSnapshot, CustomResourceObservation } from '../model/snapshot.ts';
import { healthyCluster, listed, NOW, rawKubeVirt, rawNode, rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { DEFAULT_VERSIONS_FILE } from '../versions/load.ts';
import { parseVersionData } from '../versions/parse.ts';
import { gate } from './gate.ts';
import { labelProfile, migrationPlan, offersUso, targetCounts } from './migration.ts';
import { parseSnapshot } from '../model/cluster.ts';
import { assessNodes } from '../readiness/cluster-readiness.ts';
import type { GateResult } from '../documents/gate.ts';

const DATA = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');

const BASE = ['aes', 'avx', 'avx2', 'sse4_2'];
const SUPERSET = [...BASE, 'amx_tile', 'avx512f'];

/**
 * Node labels as KubeVirt v1.9.0's node-labeller writes them on an Intel host (node_labeller.go
 * prepareLabels; feature and model names as libvirt spells them): every value a string, "true"
 * except the TSC timer labels. Abridged feature lists; the shape is the real one.
 */
const SKYLAKE_FEATURES = ['aes', 'avx', 'avx2', 'clflushopt', 'hypervisor', 'sse4.1', 'sse4.2', 'ss', 'vmx', 'xsaves'];
const KNOWN_MODELS = ['Cascadelake-Server', 'Haswell', 'Penryn', 'Skylake-Client-IBRS'];
function kubevirtLabels(hostModel: string, required: string[], features: string[], usable: string[]): Record<string, string> {
  return {
    'kubevirt.io/schedulable': 'true',
    'cpu-vendor.node.kubevirt.io/Intel': 'true',
    [`host-model-cpu.node.kubevirt.io/${hostModel}`]: 'true',
    ...Object.fromEntries(required.map((f) => [`host-model-required-features.node.kubevirt.io/${f}`, 'true'])),
    ...Object.fromEntries(features.map((f) => [`cpu-feature.node.kubevirt.io/${f}`, 'true'])),
    ...Object.fromEntries(KNOWN_MODELS.map((m) => [`cpu-model-migration.node.kubevirt.io/${m}`, 'true'])),
    ...Object.fromEntries(usable.map((m) => [`cpu-model.node.kubevirt.io/${m}`, 'true'])),
    'cpu-timer.node.kubevirt.io/tsc-frequency': '2400000000',
    'cpu-timer.node.kubevirt.io/tsc-scalable': 'false',
    'machine-type.node.kubevirt.io/pc-q35-rhel9.6.0': 'true',
    'hyperv.node.kubevirt.io/vpindex': 'true',
  };
}
const skylake = (extra: string[] = []) => kubevirtLabels('Skylake-Client-IBRS', ['hypervisor', 'ss', 'vmx'], [...SKYLAKE_FEATURES, ...extra], ['Haswell', 'Penryn', 'Skylake-Client-IBRS']);
const cascadelake = () =>
  kubevirtLabels('Cascadelake-Server', ['hypervisor', 'ss', 'vmx'], [...SKYLAKE_FEATURES, 'avx512-vnni', 'avx512bw', 'avx512f', 'pku'], ['Cascadelake-Server', 'Haswell', 'Penryn', 'Skylake-Client-IBRS']);

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

function migration(snapshot: ClusterSnapshot): { report: GateResult; check: GateResult['checks'][number]; targets: Record<string, number | null> } {
  const report = gate(snapshot, DATA, DEFAULT_GATE_CONFIG, NOW);
  const check = report.checks.find((candidate) => candidate.id === 'nodes.migration-pairs');
  if (!check) throw new Error('no nodes.migration-pairs');
  return { report, check, targets: Object.fromEntries(report.readiness.nodes.map((node) => [node.name, node.migrationTargets])) };
}

/** A VMI as stored: spec.evictionStrategy (virt-api fills in the cluster's when the VMI has none), status.nodeName and phase, the LiveMigratable condition. */
const vmi = (name: string, nodeName: string, phase = 'Running', evictionStrategy: string | null = 'LiveMigrate', liveMigratable = 'True') => ({
  apiVersion: 'kubevirt.io/v1',
  kind: 'VirtualMachineInstance',
  metadata: { name, namespace: 'vms' },
  spec: { domain: { devices: {} }, ...(evictionStrategy === null ? {} : { evictionStrategy }) },
  status: { nodeName, phase, conditions: [{ type: 'Ready', status: 'True' }, { type: 'LiveMigratable', status: liveMigratable }] },
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
    // The reports would say k2 lacks amx_tile and avx512f; the labels say k2 has all k1 needs.
    const { targets, check } = migration(
      cluster([
        { name: 'k1', features: SUPERSET, labels: skylake() },
        { name: 'k2', features: BASE, labels: skylake(['avx512-vnni']) },
      ]),
    );
    expect(targets).toEqual({ k1: 1, k2: 0 });
    expect(check.message).toContain('k2 (intel): the nearest intel candidate k1 lacks avx512-vnni');
    expect(check.evidence).toMatchObject({ featureSources: { 'kubevirt-labels': 2 } });
  });

  it('a newer host model that still knows the source model takes its VMs, not the other way round (KubeVirt v1.9 node selectors + libvirt)', () => {
    const { targets, check } = migration(cluster([{ name: 'sky-a', labels: skylake() }, { name: 'sky-b', labels: skylake() }, { name: 'cascade', labels: cascadelake() }]));
    // Skylake VMs may go to the other Skylake node and to the Cascadelake node (it lists
    // cpu-model-migration.node.kubevirt.io/Skylake-Client-IBRS and every Skylake feature).
    expect(targets).toEqual({ 'sky-a': 2, 'sky-b': 2, cascade: 0 });
    // The Skylake nodes know the Cascadelake-Server model (usable or not, libvirt lists it), and
    // KubeVirt would schedule the target pod there; libvirt would then refuse the missing features.
    expect(check.message).toContain('cascade (intel): the nearest intel candidate sky-a lacks avx512-vnni, avx512bw, avx512f, pku');
  });

  it("a target that does not know the source's host model is none, even with every feature", () => {
    const older = skylake(['avx512f']);
    delete older['cpu-model-migration.node.kubevirt.io/Skylake-Client-IBRS'];
    const { targets, check } = migration(cluster([{ name: 'sky', labels: skylake() }, { name: 'no-sky-model', labels: older }]));
    expect(targets).toEqual({ sky: 0, 'no-sky-model': 0 });
    expect(check.message).toContain('sky (intel): the nearest intel candidate no-sky-model lacks CPU model Skylake-Client-IBRS');
    expect(check.message).toContain('no-sky-model (intel): the nearest intel candidate sky lacks avx512f');
  });

  it("a host-model required feature the target lacks, or another CPU vendor label, rules the target out", () => {
    const needsPcid = { ...skylake(), 'host-model-required-features.node.kubevirt.io/pcid': 'true' };
    expect(migration(cluster([{ name: 'src', labels: needsPcid }, { name: 'dst', labels: skylake() }])).check.message).toContain('src (intel): the nearest intel candidate dst lacks pcid');
    const hygonLabelled: Record<string, string> = { ...skylake(), 'cpu-vendor.node.kubevirt.io/Hygon': 'true' };
    delete hygonLabelled['cpu-vendor.node.kubevirt.io/Intel'];
    expect(migration(cluster([{ name: 'src', labels: skylake() }, { name: 'dst', labels: hygonLabelled }])).check.message).toContain('src (intel): the nearest intel candidate dst lacks CPU vendor Intel');
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

  it('counts the running VMIs a drain must live-migrate, on stranded nodes only', () => {
    const vmis = listed(
      vmi('on-amd', 'amd-a'),
      vmi('on-amd-2', 'amd-a'),
      vmi('manual', 'amd-a', 'Running', 'None'),
      vmi('pending', 'amd-a', 'Scheduling'),
      vmi('default-strategy', 'amd-a', 'Running', null),
      vmi('if-possible-migratable', 'amd-a', 'Running', 'LiveMigrateIfPossible', 'True'),
      vmi('if-possible-not-migratable', 'amd-a', 'Running', 'LiveMigrateIfPossible', 'False'),
      vmi('external', 'amd-a', 'Running', 'External'),
      vmi('on-intel', 'intel-a'),
    );
    const { check } = migration(cluster([{ name: 'intel-a' }, { name: 'intel-b' }, { name: 'amd-a', vendor: 'amd' }], vmis));
    expect(check.message).toContain('amd-a (amd): no other ready amd node; a drain of amd-a would wait on 3 running VMs that must live-migrate (evictionStrategy LiveMigrate)');
    expect(check.message).toMatch(/^1 ready node has no live-migration target \(its VMs cannot move when it is drained or upgraded\)/);
    expect(check.message).toMatch(/3 running VMs on them must live-migrate on a drain and cannot\.$/);
    expect(check.evidence).toMatchObject({ vmis: { state: 'listed', total: 9, liveMigrateOnStranded: 3 } });
    // Without the CRD, the check works from the reports alone.
    const absent = migration(cluster([{ name: 'intel-a' }, { name: 'amd-a', vendor: 'amd' }], { state: 'crd-absent' })).check;
    expect(absent).toMatchObject({ status: 'warn', evidence: { vmis: { state: 'crd-absent' } } });
    expect(absent.message).not.toMatch(/must live-migrate/);
  });

  it("gives every node's drain figure, stranded or not: the running VMs KubeVirt must live-migrate off it", () => {
    const vmis = listed(
      vmi('a-1', 'intel-a'),
      vmi('a-2', 'intel-a'),
      vmi('a-manual', 'intel-a', 'Running', 'None'),
      vmi('a-pending', 'intel-a', 'Scheduling'),
      vmi('b-1', 'intel-b'),
      vmi('amd-1', 'amd-a'),
    );
    const { check } = migration(cluster([{ name: 'intel-a' }, { name: 'intel-b' }, { name: 'amd-a', vendor: 'amd' }], vmis));
    // Hand-counted: intel-a has two LiveMigrate VMs running (not the None one, not the pending one).
    expect(check.evidence).toMatchObject({ vmis: { liveMigrateOnStranded: 1, liveMigrateOnDrain: { 'intel-a': 2, 'intel-b': 1, 'amd-a': 1 } } });
    expect(Object.keys((check.evidence.vmis as { liveMigrateOnDrain: object }).liveMigrateOnDrain)).toEqual(['intel-a', 'amd-a', 'intel-b']);
    expect(check.evidence.vmis).not.toHaveProperty('liveMigrateOnDrainUnlisted');
  });

  it('lists at most 20 drain figures, the largest, and counts the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) => `intel-${String(i).padStart(2, '0')}`);
    // Node i runs i + 1 VMs: the 20 listed are intel-05 .. intel-24.
    const vmis = listed(...many.flatMap((name, i) => Array.from({ length: i + 1 }, (_, k) => vmi(`${name}-${k}`, name))));
    const { check } = migration(cluster(many.map((name) => ({ name })), vmis));
    const figures = (check.evidence.vmis as { liveMigrateOnDrain: Record<string, number> }).liveMigrateOnDrain;
    expect(Object.keys(figures)).toHaveLength(20);
    expect(figures['intel-24']).toBe(25);
    expect(figures['intel-05']).toBe(6);
    expect(figures['intel-04']).toBeUndefined();
    expect(check.evidence.vmis).toMatchObject({ liveMigrateOnDrainUnlisted: 5 });
  });

  it("a VMI without its own eviction strategy follows the KubeVirt CR's spec.configuration.evictionStrategy", () => {
    const vmis = listed(vmi('default-strategy', 'amd-a', 'Running', null), vmi('manual', 'amd-a', 'Running', 'None'));
    const nodes = [{ name: 'intel-a' }, { name: 'intel-b' }, { name: 'amd-a', vendor: 'amd' as const }];
    const withDefault = (evictionStrategy?: string) =>
      migration({ ...cluster(nodes, vmis), kubevirt: listed(rawKubeVirt({ nodePlacement: { nodeSelector: { 'virtgate.io/ready': 'true' } }, ...(evictionStrategy ? { evictionStrategy } : {}) })) }).check;
    expect(withDefault('LiveMigrate').evidence).toMatchObject({ vmis: { liveMigrateOnStranded: 1 } });
    // KubeVirt's own default is None.
    expect(withDefault().evidence).toMatchObject({ vmis: { liveMigrateOnStranded: 0 } });
  });

  it('reads the eviction strategy from spec, not from a status field KubeVirt does not have', () => {
    const statusOnly = { ...vmi('status-only', 'amd-a', 'Running', null), status: { nodeName: 'amd-a', phase: 'Running', evictionStrategy: 'LiveMigrate' } };
    const { check } = migration(cluster([{ name: 'intel-a' }, { name: 'intel-b' }, { name: 'amd-a', vendor: 'amd' }], listed(statusOnly)));
    expect(check.evidence).toMatchObject({ vmis: { liveMigrateOnStranded: 0 } });
  });
});

describe('migration helpers', () => {
  it('offersUso: 6.2 and later', () => {
    expect([offersUso('5.14'), offersUso('6.1'), offersUso('6.2'), offersUso('6.8.0-45-generic'), offersUso('7.0'), offersUso(null), offersUso('x')]).toEqual([
      false, false, true, true, true, null, null,
    ]);
  });
  it("labelProfile: a host model needs its model, required features, every CPU feature and its vendor; a node offers its known models, features and vendor", () => {
    const profile = labelProfile({
      'cpu-feature.node.kubevirt.io/avx2': 'true',
      'cpu-feature.node.kubevirt.io/mpx': 'false',
      'host-model-cpu.node.kubevirt.io/EPYC': 'true',
      'host-model-required-features.node.kubevirt.io/x2apic': 'true',
      'cpu-model-migration.node.kubevirt.io/EPYC': 'true',
      'cpu-model-migration.node.kubevirt.io/Opteron_G3': 'true',
      'cpu-model.node.kubevirt.io/EPYC': 'true',
      'cpu-vendor.node.kubevirt.io/AMD': 'true',
      'cpu-timer.node.kubevirt.io/tsc-frequency': '2994374000',
      other: 'true',
    });
    expect(profile && { needs: [...profile.needs], offers: [...profile.offers] }).toEqual({
      needs: ['avx2', 'CPU vendor AMD', 'CPU model EPYC', 'x2apic'],
      offers: ['avx2', 'CPU model EPYC', 'CPU model Opteron_G3', 'CPU vendor AMD'],
    });
    // Without a host model (no KubeVirt, arm64, not labelled yet) the labels are no source.
    expect(labelProfile({ 'kubernetes.io/os': 'linux', 'cpu-feature.node.kubevirt.io/avx2': 'true' })).toBeNull();
  });

  it('follows a changed CPU at once, though a recompute with the same profiles reuses the last plan', () => {
    const before = [{ name: 'a', features: SUPERSET }, { name: 'b', features: SUPERSET }, { name: 'c', features: BASE }];
    expect(migration(cluster(before)).targets).toEqual({ a: 1, b: 1, c: 2 });
    // Same names and profiles in fresh objects (a heartbeat): the same answer.
    expect(migration(cluster(before)).targets).toEqual({ a: 1, b: 1, c: 2 });
    // b's CPU loses the superset's features: a is stranded, and b and c pair.
    const after = [{ name: 'a', features: SUPERSET }, { name: 'b', features: BASE }, { name: 'c', features: BASE }];
    expect(migration(cluster(after)).targets).toEqual({ a: 0, b: 2, c: 2 });
    // And back.
    expect(migration(cluster(before)).targets).toEqual({ a: 1, b: 1, c: 2 });
  });

  it("targetCounts: each node's count beside it, null where it cannot run VMs, also for nodes in another order than the plan was made from", () => {
    const specs = [{ name: 'a', features: SUPERSET }, { name: 'b', features: SUPERSET }, { name: 'c', features: BASE }, { name: 'd', ready: false }];
    const assessed = assessNodes(parseSnapshot(cluster(specs)), DEFAULT_GATE_CONFIG, NOW).nodes;
    const plan = migrationPlan(assessed);
    const byName = (nodes: typeof assessed, counts: (number | null)[]) => Object.fromEntries(nodes.map((item, index) => [item.node.name, counts[index]]));
    // Worked out by hand: a and b are each other's target (c lacks their features); c takes both.
    expect(byName(assessed, targetCounts(plan, assessed))).toEqual({ a: 1, b: 1, c: 2, d: null });
    const reversed = [...assessed].reverse();
    expect(byName(reversed, targetCounts(plan, reversed))).toEqual({ a: 1, b: 1, c: 2, d: null });
  });
});
