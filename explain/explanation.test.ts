/**
 * Nodes judged against a VMI's requirements, with virtgate's evidence from reports an agent would
 * write (test/lab/reports/agent-report.ts runs the agent's evaluate() and buildReport()). Which
 * node fails which requirement, and why, is worked out here by hand from each node's labels,
 * allocatable and host kind.
 */
import { describe, expect, it } from 'vitest';
import { parseNode } from '../aggregator/model/node.ts';
import { assessNode } from '../aggregator/readiness/assess-node.ts';
import { readReport } from '../core/report/read.ts';
import { agentNodeValidation, type HostKind } from '../test/lab/reports/agent-report.ts';
import { explain } from './explanation.ts';
import { type JudgeContext } from './judge.ts';
import { KUBEVIRT_DEFAULTS } from './kubevirt-config.ts';
import type { NodeView } from './node-view.ts';
import { readVmiInput } from './vmi-input.ts';

const NOW = new Date('2026-12-02T12:00:00Z');
const GiB = 2 ** 30;
const CONTEXT: JudgeContext = { prefix: 'virtgate.io', workloadsPlacement: { state: 'valid', nodeSelector: { 'virtgate.io/ready': 'true' }, requiredTerms: null, tolerations: [] }, permittedHostDevices: [] };
const DEVICES = { 'devices.kubevirt.io/kvm': 1000, 'devices.kubevirt.io/tun': 1000, 'devices.kubevirt.io/vhost-net': 1000 };

interface NodeSpec {
  name: string;
  host?: HostKind | null;
  labels?: Record<string, string>;
  allocatable?: Record<string, number>;
  requested?: Record<string, number>;
  taints?: { key: string; value?: string; effect: string }[];
  unschedulable?: boolean;
}

/** A node as explain reads it: the Node, its agent's report (none for host null), what its pods request. */
function view(spec: NodeSpec): NodeView {
  const uid = `uid-${spec.name}`;
  const host = spec.host === undefined ? {} : spec.host;
  const ready = host !== null && host.kvm !== false && host.tun !== false;
  const labels = { 'kubernetes.io/arch': 'amd64', 'virtgate.io/ready': String(ready), ...(ready ? { 'kubevirt.io/schedulable': 'true' } : {}), ...spec.labels };
  const node = parseNode({ metadata: { name: spec.name, uid, labels }, spec: { taints: spec.taints ?? [] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
  if (!node) throw new Error('unparseable node');
  const reports = host === null ? [] : [readReport(agentNodeValidation(spec.name, uid, host, new Date(NOW.getTime() - 60_000)), { hints: true })];
  const assessed = assessNode(node, reports, { staleAfterSeconds: 600, prefix: 'virtgate.io', nowMs: NOW.getTime() });
  const allocatable = spec.allocatable ?? { cpu: 4, memory: 16 * GiB, ...(ready ? DEVICES : {}) };
  return { node, unschedulable: spec.unschedulable ?? false, allocatable, requested: spec.requested ?? {}, assessed };
}

function vmi(extra: { spec?: Record<string, unknown>; status?: Record<string, unknown> } = {}) {
  return readVmiInput(
    {
      kind: 'VirtualMachineInstance',
      metadata: { name: 'fedora', namespace: 'vms' },
      spec: { architecture: 'amd64', domain: { cpu: { cores: 2, model: 'host-model' }, devices: { interfaces: [{ name: 'default', masquerade: {} }] }, resources: { requests: { memory: '2Gi' } } }, ...extra.spec },
      status: extra.status ?? {},
    },
    'vmi vms/fedora',
    { clusterCpuModel: null, defaultArchitecture: 'amd64' },
    { fromServer: true },
  );
}

const CLUSTER = [
  view({ name: 'good-1' }),
  view({ name: 'good-2' }),
  view({ name: 'nokvm-1', host: { kvm: false } }),
  view({ name: 'nokvm-2', host: { kvm: false } }),
  view({ name: 'notun-1', host: { tun: false } }),
  view({ name: 'full-1', requested: { cpu: 3.9 } }),
  view({ name: 'cordoned-1', unschedulable: true }),
  view({ name: 'noreport-1', host: null }),
  view({ name: 'smallmem-1', allocatable: { cpu: 4, memory: GiB, ...DEVICES } }),
];

describe('explain', () => {
  const result = explain({ vmi: vmi(), config: KUBEVIRT_DEFAULTS, nodes: CLUSTER, context: CONTEXT });
  const group = (requirement: string) => result.placement.groups.filter((entry) => entry.requirement === requirement);

  it('fits the nodes that meet every requirement, and can run (exit 0)', () => {
    expect(result.placement.fitting).toEqual(['good-1', 'good-2']);
    expect(result.placement.candidates).toBe(CLUSTER.length);
    expect(result).toMatchObject({ result: 'can-run', exitCode: 0, migration: null });
  });

  it("names virtgate's failing check as the reason virt-handler is not on a node, with the check's remedy", () => {
    const noHandler = group('label:kubevirt.io/schedulable');
    expect(noHandler.map((entry) => [entry.cause, entry.nodes])).toEqual([
      ['no virt-handler here: virtgate.io/ready=false (dev.kvm: fail)', ['nokvm-1', 'nokvm-2']],
      // Groups of one node each: in the order of their causes' text.
      ['no virt-handler here, and virtgate has no current report (missing)', ['noreport-1']],
      ['no virt-handler here: virtgate.io/ready=false (dev.tun: fail)', ['notun-1']],
    ]);
    const kvm = noHandler[0];
    expect(kvm?.example.detail).toContain('dev/kvm');
    expect(kvm?.remedy).toMatch(/kvm_intel/);
    expect(noHandler[2]?.remedy).toContain('modprobe tun');
  });

  it('names the check that kept the node from ready, not the first failing one: a host without VT-x and without tun is at tier none because of tun', () => {
    const host = view({ name: 'no-vtx-no-tun', host: { vendor: 'other', tun: false } });
    // Its report fails cpu.virtualization first (registry order): only tun makes the tier none.
    expect(host.assessed.report?.checks.find((check) => check.status === 'fail')?.id).toBe('cpu.virtualization');
    const answer = explain({ vmi: vmi(), config: KUBEVIRT_DEFAULTS, nodes: [host], context: CONTEXT });
    expect(answer.placement.groups[0]?.cause).toBe('no virt-handler here: virtgate.io/ready=false (dev.tun: fail)');
  });

  it("judges what the node's pods already hold, and says what is free", () => {
    expect(group('resource:cpu')).toEqual([expect.objectContaining({ cause: 'insufficient cpu', nodes: ['full-1'], example: { node: 'full-1', detail: '200m needed, 100m free of 4' } })]);
    expect(group('resource:memory')).toEqual([expect.objectContaining({ cause: 'insufficient memory', nodes: ['smallmem-1'], example: { node: 'smallmem-1', detail: '2Gi needed, 1Gi free of 1Gi' } })]);
    expect(group('taints')).toEqual([expect.objectContaining({ cause: 'cordoned (spec.unschedulable)', nodes: ['cordoned-1'] })]);
  });

  it('groups by the first requirement failed, largest group first, and lists every failure per node', () => {
    expect(result.placement.groups[0]?.count).toBe(2);
    expect(result.placement.groups.reduce((sum, entry) => sum + entry.count, 0)).toBe(CLUSTER.length - 2);
    const nokvm = result.placement.nodes.find((node) => node.name === 'nokvm-1');
    // No virt-handler, so KubeVirt's device plugins advertise nothing either: kvm, tun and vhost-net are each 0.
    expect(nokvm?.failures.map((failure) => failure.requirement)).toEqual(['label:kubevirt.io/schedulable', 'resource:devices.kubevirt.io/kvm', 'resource:devices.kubevirt.io/tun', 'resource:devices.kubevirt.io/vhost-net']);
    expect(nokvm?.failures[1]?.cause).toBe('kvm: 0 because dev.kvm fails');
    expect(nokvm?.virtgate.state).toBe('not-ready');
  });

  it('cannot run (exit 1) when no node meets its nodeSelector, and says which label is missing', () => {
    const pinned = explain({ vmi: vmi({ spec: { nodeSelector: { pool: 'gpu' } } }), config: KUBEVIRT_DEFAULTS, nodes: CLUSTER, context: CONTEXT });
    expect(pinned).toMatchObject({ result: 'cannot-run', exitCode: 1 });
    expect(pinned.placement.nodes.find((node) => node.name === 'good-1')?.failures).toEqual([
      { requirement: 'label:pool', cause: 'pool=gpu not on the node', detail: 'pool absent', remedy: null },
    ]);
  });

  it('for a running VMI, judges the other nodes as live-migration targets', () => {
    const running = explain({ vmi: vmi({ status: { phase: 'Running', nodeName: 'good-1' } }), config: KUBEVIRT_DEFAULTS, nodes: CLUSTER, context: CONTEXT });
    expect(running.migration?.from).toBe('good-1');
    expect(running.migration?.candidates).toBe(CLUSTER.length - 1);
    // good-1 has no host-model-cpu label: KubeVirt could not pick a target, which the notes say.
    expect(running.notes.some((note) => note.includes('host-model-cpu.node.kubevirt.io'))).toBe(true);
  });

  it('a host-model migration needs the source host model on the target', () => {
    const labelled = [
      view({ name: 'src', labels: { 'host-model-cpu.node.kubevirt.io/Skylake-Client-IBRS': 'true', 'cpu-model-migration.node.kubevirt.io/Skylake-Client-IBRS': 'true' } }),
      view({ name: 'same', labels: { 'cpu-model-migration.node.kubevirt.io/Skylake-Client-IBRS': 'true', 'host-model-cpu.node.kubevirt.io/Skylake-Client-IBRS': 'true' } }),
      view({ name: 'older', labels: { 'cpu-model-migration.node.kubevirt.io/Broadwell': 'true', 'host-model-cpu.node.kubevirt.io/Broadwell': 'true' } }),
    ];
    const running = explain({ vmi: vmi({ status: { phase: 'Running', nodeName: 'src' } }), config: KUBEVIRT_DEFAULTS, nodes: labelled, context: CONTEXT });
    expect(running.migration?.fitting).toEqual(['same']);
    expect(running.migration?.groups).toEqual([
      expect.objectContaining({ requirement: 'label:cpu-model-migration.node.kubevirt.io/Skylake-Client-IBRS', cause: 'host model Skylake-Client-IBRS: this node cannot take it as a migration target', nodes: ['older'] }),
    ]);
  });

  it('a node with exactly the CPU left fits, although 3.8 - 1.9 - 1.8 is not exactly 0.1 in floating point', () => {
    const tight = view({ name: 'tight', allocatable: { cpu: 3.8, memory: 16 * GiB, ...DEVICES }, requested: { cpu: 1.9 + 1.8 } });
    const oneCpu = vmi({ spec: { architecture: 'amd64', domain: { cpu: { cores: 1, model: 'host-model' }, devices: {} } } });
    expect(explain({ vmi: oneCpu, config: KUBEVIRT_DEFAULTS, nodes: [tight], context: CONTEXT }).placement.fitting).toEqual(['tight']);
  });

  it('the groups alone (each node judged up to its first failure) are the groups of the whole answer', () => {
    const groupsOnly = explain({ vmi: vmi(), config: KUBEVIRT_DEFAULTS, nodes: CLUSTER, context: CONTEXT }, { perNode: false });
    expect(groupsOnly.placement.nodes).toEqual([]);
    expect({ ...groupsOnly.placement, nodes: result.placement.nodes }).toEqual(result.placement);
  });

  it('5,000 nodes give as many groups as there are distinct reasons', () => {
    const kinds = [{}, { kvm: false }, { tun: false }] as const;
    const many = Array.from({ length: 5000 }, (_, index) => view({ name: `n-${String(index).padStart(4, '0')}`, host: kinds[index % 3] }));
    const answer = explain({ vmi: vmi(), config: KUBEVIRT_DEFAULTS, nodes: many, context: CONTEXT });
    expect(answer.placement.fitting).toHaveLength(1667);
    expect(answer.placement.groups.map((entry) => [entry.count, entry.nodes.length])).toEqual([
      [1667, 10],
      [1666, 10],
    ]);
  });
});
