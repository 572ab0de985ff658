import { describe, expect, it } from 'vitest';
import { parseSnapshot } from '../model/cluster.ts';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import type { ClusterSnapshot } from '../model/snapshot.ts';
import { healthyCluster, NOW, rawNode, rawReport, secondsAgo } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { computeReadiness } from './cluster-readiness.ts';
import type { NodeReadiness } from '../documents/readiness.ts';

function readiness(snapshot: Partial<ClusterSnapshot>, config = DEFAULT_GATE_CONFIG) {
  return computeReadiness(parseSnapshot(healthyCluster(snapshot)), config, NOW);
}

function one(node: unknown, reports: unknown[]): NodeReadiness {
  const result = readiness({ nodes: [node], nodeValidations: reports });
  expect(result.nodes).toHaveLength(1);
  return result.nodes[0] as NodeReadiness;
}

describe('node readiness', () => {
  it('is ready for a fresh hardware report', () => {
    expect(one(rawNode('n1'), [rawReport('n1', { heartbeatAt: secondsAgo(90) })])).toMatchObject({
      name: 'n1',
      state: 'ready',
      unknownCause: null,
      tier: 'hardware',
      cpuVendor: 'intel',
      heartbeatAgeSeconds: 90,
      containerRuntime: 'containerd://2.1.4',
    });
  });

  it('is emulation when the agent allowed emulation, not-ready when it did not', () => {
    expect(one(rawNode('n1'), [rawReport('n1', { tier: 'emulation', ready: true })]).state).toBe('emulation');
    expect(one(rawNode('n1'), [rawReport('n1', { tier: 'emulation', ready: false })]).state).toBe('not-ready');
  });

  it('is not-ready and names the failing checks', () => {
    const node = one(rawNode('n1'), [rawReport('n1', { ready: false })]);
    expect(node).toMatchObject({ state: 'not-ready', reason: 'not ready (failing: dev.kvm, dev.tun)', tier: 'none' });
    expect(node.failingChecks.map((check) => check.id)).toEqual(['dev.kvm', 'dev.tun']);
  });

  it('is not-ready when the kubelet says NotReady, even if the report says ready', () => {
    expect(one(rawNode('n1', { kubeletReady: 'Unknown' }), [rawReport('n1')])).toMatchObject({ state: 'not-ready', reason: expect.stringMatching(/kubelet/) });
  });

  it('does not trust ready at tier none', () => {
    expect(one(rawNode('n1'), [rawReport('n1', { ready: true, tier: 'none' })]).state).toBe('not-ready');
  });

  it('is unknown without a report', () => {
    expect(one(rawNode('n1'), [])).toMatchObject({ state: 'unknown', unknownCause: 'missing', tier: null, heartbeatAt: null });
  });

  it('is unknown when the heartbeat is older than staleAfter, keeping the last known tier', () => {
    const stale = one(rawNode('n1'), [rawReport('n1', { heartbeatAt: secondsAgo(1801) })]);
    expect(stale).toMatchObject({ state: 'unknown', unknownCause: 'stale', tier: 'hardware', heartbeatAgeSeconds: 1801 });
    expect(stale.reason).toMatch(/stale: last heartbeat 30m ago \(limit 30m\)/);
    expect(one(rawNode('n1'), [rawReport('n1', { heartbeatAt: secondsAgo(1800) })]).state).toBe('ready');
  });

  it('follows the configured staleAfter', () => {
    const result = readiness({ nodes: [rawNode('n1')], nodeValidations: [rawReport('n1', { heartbeatAt: secondsAgo(120) })] }, { ...DEFAULT_GATE_CONFIG, staleAfterSeconds: 60 });
    expect(result.nodes[0]?.unknownCause).toBe('stale');
  });

  it('ignores a heartbeat far in the future', () => {
    expect(one(rawNode('n1'), [rawReport('n1', { heartbeatAt: secondsAgo(-86_400) })])).toMatchObject({ state: 'unknown', unknownCause: 'invalid', reason: expect.stringMatching(/in the future/) });
    expect(one(rawNode('n1'), [rawReport('n1', { heartbeatAt: secondsAgo(-30) })]).state).toBe('ready');
  });

  it('is unknown with an invalid report, saying why', () => {
    const report = rawReport('n1');
    (report.status as Record<string, unknown>).tier = 42;
    expect(one(rawNode('n1'), [report])).toMatchObject({ state: 'unknown', unknownCause: 'invalid', reason: expect.stringMatching(/^report is invalid: status\.tier/) });
  });

  describe('forged reports are ignored', () => {
    it.each([
      ['spec.nodeName names another node', rawReport('n1', { nodeName: 'n2' }), /names spec\.nodeName n2/],
      ['no ownerReference', rawReport('n1', { ownerReferences: [] }), /no ownerReference to its Node/],
      ['owned by another node', rawReport('n1', { ownerName: 'n2', ownerUid: 'uid-n2' }), /owned by v1 Node n2/],
      ['owned by the right name but another uid', rawReport('n1', { ownerUid: 'uid-of-a-deleted-n1' }), /uid uid-of-a-deleted-n1 is not this Node's uid uid-n1/],
      ['owned without a uid while the Node has one', rawReport('n1', { ownerUid: null }), /uid \(none\)/],
    ])('%s', (_name, report, reason) => {
      const node = one(rawNode('n1'), [report]);
      expect(node).toMatchObject({ state: 'unknown', unknownCause: 'forged', tier: null });
      expect(node.reason).toMatch(reason);
    });

    it('but the uid is not compared when the Node has none', () => {
      const node = rawNode('n1');
      delete (node.metadata as Record<string, unknown>).uid;
      expect(one(node, [rawReport('n1', { ownerUid: 'anything' })]).state).toBe('ready');
    });

    it('and a report pretending to be another node leaves that node unknown', () => {
      const result = readiness({ nodes: [rawNode('victim')], nodeValidations: [rawReport('victim', { nodeName: 'attacker', ready: true })] });
      expect(result.nodes[0]).toMatchObject({ name: 'victim', state: 'unknown', unknownCause: 'forged' });
    });

    it('and two reports for one node are both distrusted', () => {
      expect(one(rawNode('n1'), [rawReport('n1'), rawReport('n1')])).toMatchObject({ state: 'unknown', unknownCause: 'duplicate' });
    });
  });
});

describe('cluster readiness', () => {
  const snapshot: Partial<ClusterSnapshot> = {
    nodes: ['r1', 'r2', 'emu', 'bad', 'gone', 'zz-bad'].map((name) => rawNode(name)).concat([{ metadata: {} }, rawNode('r1')]),
    nodeValidations: [
      rawReport('r1'),
      rawReport('r2'),
      rawReport('emu', { tier: 'emulation', ready: true }),
      rawReport('bad', { ready: false }),
      rawReport('zz-bad', { ready: false }),
      rawReport('deleted-node'),
      { metadata: { name: 99 } },
    ],
  };

  it('counts nodes by state and gives the ready ratio (ready + emulation)', () => {
    const result = readiness(snapshot);
    expect(result.total).toBe(6);
    expect(result.counts).toEqual({ ready: 2, emulation: 1, 'not-ready': 2, unknown: 1 });
    expect(result.readyRatio).toBe(0.5);
  });

  it('lists nodes worst first, by name within a state', () => {
    expect(readiness(snapshot).nodes.map((node) => `${node.state}:${node.name}`)).toEqual([
      'not-ready:bad',
      'not-ready:zz-bad',
      'unknown:gone',
      'emulation:emu',
      'ready:r1',
      'ready:r2',
    ]);
  });

  it('accounts for objects it could not attribute', () => {
    expect(readiness(snapshot).ignored).toEqual({ unnamedNodes: 1, duplicateNodes: 1, orphanReports: ['deleted-node'], orphanReportCount: 1, unnamedReports: 1 });
  });

  it('has a ratio of 0 without nodes', () => {
    expect(readiness({ nodes: [], nodeValidations: [] })).toMatchObject({ total: 0, readyRatio: 0 });
  });

  it('falls back to the cpu-vendor label under the configured prefix', () => {
    const report = rawReport('n1');
    delete (report.status as Record<string, unknown>).cpuVendor;
    const node = rawNode('n1', { labels: { 'example.com/cpu-vendor': 'AMD', 'virtgate.io/cpu-vendor': 'intel' } });
    const result = readiness({ nodes: [node], nodeValidations: [report] }, { ...DEFAULT_GATE_CONFIG, prefix: 'example.com' });
    expect(result.nodes[0]?.cpuVendor).toBe('amd');
  });
});
