import { describe, expect, it } from 'vitest';
import { rawNode } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { parseNode } from './node.ts';

describe('parseNode', () => {
  it('reads the fields the gate uses', () => {
    const node = parseNode(rawNode('n1', { labels: { a: 'b' }, taints: [{ key: 'k', effect: 'NoSchedule' }], runtime: 'cri-o://1.33.1' }));
    expect(node).toMatchObject({
      name: 'n1',
      uid: 'uid-n1',
      labels: { a: 'b', 'kubernetes.io/hostname': 'n1' },
      taints: [{ key: 'k', value: '', effect: 'NoSchedule' }],
      containerRuntimeVersion: 'cri-o://1.33.1',
      kernelVersion: '5.14.0-570.el9.x86_64',
      osImage: 'CentOS Stream 9',
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      creationTimestamp: '2026-01-01T00:00:00Z',
    });
  });

  it('accepts client-node style Date timestamps', () => {
    const raw = rawNode('n1');
    (raw.metadata as Record<string, unknown>).creationTimestamp = new Date('2026-02-03T04:05:06Z');
    expect(parseNode(raw)?.creationTimestamp).toBe('2026-02-03T04:05:06.000Z');
    (raw.metadata as Record<string, unknown>).creationTimestamp = new Date('nonsense');
    expect(parseNode(raw)?.creationTimestamp).toBeNull();
  });

  it('returns null for objects without a usable name', () => {
    for (const raw of [null, 7, 'node', [], {}, { metadata: {} }, { metadata: { name: 7 } }, { metadata: { name: '' } }, { metadata: { name: 'x'.repeat(254) } }]) {
      expect(parseNode(raw)).toBeNull();
    }
  });

  it('drops malformed parts instead of failing the node', () => {
    const node = parseNode({
      metadata: { name: 'n1', uid: 12, labels: { good: 'yes', bad: 3, nested: { a: 1 } }, annotations: { 'kubevirt.io/heartbeat': { at: 'now' } } },
      spec: { taints: [{ key: 'k', effect: 'NoExecute' }, { key: 5 }, 'x', null] },
      status: { nodeInfo: { containerRuntimeVersion: ['docker'] }, conditions: 'Ready' },
    });
    expect(node).toEqual({
      name: 'n1',
      uid: null,
      labels: { good: 'yes' },
      taints: [{ key: 'k', value: '', effect: 'NoExecute' }],
      containerRuntimeVersion: null,
      kernelVersion: null,
      osImage: null,
      conditions: [],
      creationTimestamp: null,
      kubevirtHeartbeat: null,
    });
  });

  it('keeps virt-handler\'s heartbeat annotation as written', () => {
    const node = parseNode({ metadata: { name: 'n1', annotations: { 'kubevirt.io/heartbeat': '2026-12-02T11:58:30Z', other: 'x' } } });
    expect(node?.kubevirtHeartbeat).toBe('2026-12-02T11:58:30Z');
    expect(parseNode({ metadata: { name: 'n1', annotations: 'heartbeat' } })?.kubevirtHeartbeat).toBeNull();
  });

  it('keeps a label named __proto__ as a plain key', () => {
    const labels = JSON.parse('{"__proto__": "x", "a": "b"}') as unknown;
    const node = parseNode({ metadata: { name: 'n1', labels } });
    expect(Object.getPrototypeOf(node?.labels)).toBe(Object.prototype);
    expect(Object.hasOwn(node?.labels ?? {}, '__proto__')).toBe(true);
  });

  it('survives an object whose getters throw', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); } });
    expect(parseNode(hostile)).toBeNull();
    expect(parseNode({ metadata: { name: 'n1', labels: hostile } })?.labels).toEqual({});
  });
});
