import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { nodeKeys } from '../core/kube/names.ts';
import { formatOwnership } from '../core/kube/ownership.ts';
import { conditionDeletePatch, metadataPatch, nothingToRemove, planNode } from './plan.ts';

const keys = nodeKeys('virtgate.io');

function node(options: { labels?: Record<string, string>; owned?: string; taints?: string[]; conditions?: string[] }): V1Node {
  return {
    metadata: {
      name: 'worker-1',
      resourceVersion: '42',
      labels: options.labels ?? {},
      ...(options.owned !== undefined ? { annotations: { 'virtgate.io/owned': options.owned, 'example.com/keep': 'x' } } : {}),
    },
    spec: { taints: (options.taints ?? []).map((key) => ({ key, value: 'true', effect: 'NoSchedule' })) },
    status: { conditions: (options.conditions ?? []).map((type) => ({ type, status: 'True' })) },
  };
}

describe('planNode', () => {
  it('removes exactly the owned labels and taints present, the annotation and the condition', () => {
    const plan = planNode(
      node({
        labels: { 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware', 'example.com/team': 'a' },
        owned: formatOwnership({ labels: ['virtgate.io/ready', 'virtgate.io/tier', 'virtgate.io/kvm'], taints: ['virtgate.io/not-ready'] }),
        taints: ['virtgate.io/not-ready', 'example.com/dedicated'],
        conditions: ['Ready', 'VirtualizationReady'],
      }),
      keys,
    );
    expect(plan).toEqual({
      node: 'worker-1',
      labels: ['virtgate.io/ready', 'virtgate.io/tier'],
      taints: ['virtgate.io/not-ready'],
      annotation: true,
      condition: true,
      leftAlone: [],
    });
  });

  it('never removes a key outside the prefix, even when a tampered annotation claims it', () => {
    const plan = planNode(
      node({
        labels: { 'kubernetes.io/hostname': 'worker-1', 'virtgate.io/ready': 'true' },
        owned: formatOwnership({ labels: ['kubernetes.io/hostname', 'virtgate.io/ready'], taints: ['example.com/dedicated'] }),
        taints: ['example.com/dedicated'],
      }),
      keys,
    );
    expect(plan.labels).toEqual(['virtgate.io/ready']);
    expect(plan.taints).toEqual([]);
    expect(plan.leftAlone).toEqual([
      { key: 'kubernetes.io/hostname', kind: 'label', why: 'outside the prefix' },
      { key: 'example.com/dedicated', kind: 'taint', why: 'outside the prefix' },
    ]);
  });

  it('leaves prefixed keys it never recorded, and says so', () => {
    const plan = planNode(node({ labels: { 'virtgate.io/custom': 'x' }, taints: ['virtgate.io/maintenance'] }), keys);
    expect(plan.labels).toEqual([]);
    expect(plan.leftAlone).toEqual([
      { key: 'virtgate.io/custom', kind: 'label', why: 'not recorded as owned' },
      { key: 'virtgate.io/maintenance', kind: 'taint', why: 'not recorded as owned' },
    ]);
    expect(nothingToRemove(plan)).toBe(true);
  });

  it('removes a mangled annotation but nothing it cannot read', () => {
    const plan = planNode(node({ labels: { 'virtgate.io/ready': 'true' }, owned: '{not json' }), keys);
    expect(plan.annotation).toBe(true);
    expect(plan.labels).toEqual([]);
    expect(nothingToRemove(plan)).toBe(false);
  });

  it('finds nothing on a node virtgate never touched', () => {
    const plan = planNode(node({ labels: { 'example.com/a': 'b' }, conditions: ['Ready'] }), keys);
    expect(nothingToRemove(plan)).toBe(true);
  });

  it('follows the configured prefix', () => {
    const custom = nodeKeys('nodes.example.com');
    const plan = planNode(
      {
        metadata: {
          name: 'n',
          labels: { 'nodes.example.com/ready': 'true', 'virtgate.io/ready': 'true' },
          annotations: { 'nodes.example.com/owned': formatOwnership({ labels: ['nodes.example.com/ready', 'virtgate.io/ready'], taints: [] }) },
        },
      },
      custom,
    );
    expect(plan.labels).toEqual(['nodes.example.com/ready']);
    expect(plan.leftAlone).toEqual([{ key: 'virtgate.io/ready', kind: 'label', why: 'outside the prefix' }]);
  });
});

describe('metadataPatch', () => {
  it('nulls owned labels and the annotation, keeps foreign taints, and pins the resourceVersion when taints change', () => {
    const current = node({
      labels: { 'virtgate.io/ready': 'false' },
      owned: formatOwnership({ labels: ['virtgate.io/ready'], taints: ['virtgate.io/not-ready'] }),
      taints: ['example.com/dedicated', 'virtgate.io/not-ready'],
    });
    expect(metadataPatch(current, planNode(current, keys), keys)).toEqual({
      metadata: { resourceVersion: '42', labels: { 'virtgate.io/ready': null }, annotations: { 'virtgate.io/owned': null } },
      spec: { taints: [{ key: 'example.com/dedicated', value: 'true', effect: 'NoSchedule' }] },
    });
  });

  it('leaves taints and the resourceVersion out when no taint changes', () => {
    const current = node({ labels: { 'virtgate.io/ready': 'true' }, owned: formatOwnership({ labels: ['virtgate.io/ready'], taints: [] }), taints: ['x/y'] });
    expect(metadataPatch(current, planNode(current, keys), keys)).toEqual({
      metadata: { labels: { 'virtgate.io/ready': null }, annotations: { 'virtgate.io/owned': null } },
    });
  });

  it('is empty when only the condition is left', () => {
    const current = node({ conditions: ['VirtualizationReady'] });
    expect(metadataPatch(current, planNode(current, keys), keys)).toBeUndefined();
  });
});

describe('conditionDeletePatch', () => {
  it('deletes VirtualizationReady by its merge key', () => {
    expect(conditionDeletePatch()).toEqual({ status: { conditions: [{ type: 'VirtualizationReady', $patch: 'delete' }] } });
  });
});
