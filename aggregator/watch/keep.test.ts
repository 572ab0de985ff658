import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../test/lab/support/fuzz-runs.ts';
import { evaluateGate, gate } from '../gate/gate.ts';
import { modelOf } from '../model/cluster.ts';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import { healthyCluster, NOW, rawNode, rawReport, secondsAgo } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { DEFAULT_VERSIONS_FILE } from '../versions/load.ts';
import { parseVersionData } from '../versions/parse.ts';
import { keepNode, keepReport } from './keep.ts';

const DATA = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');
const RUNS = fuzzRuns(150);

/** What the API can deliver: JSON values, some long, some nearly right. */
const plant = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', 'True', 'hardware', 'emulation', 'none', 'ok', 'intel', 'fail', 'warn', 'v1', 'Node', 'containerd://2', 'docker://1', 'NoSchedule', '__proto__'),
  fc.constantFrom(0, -1, true, false, null, [], {}, [{}], secondsAgo(30), '2026-12-02T11:59:00.123456789Z'),
  fc.integer({ min: 1, max: 5000 }).map((length) => 'x'.repeat(length)),
);

const REMOVE = Symbol('remove');

/** A valid object with the value at one random path replaced or removed (JSON only, as from the API). */
function mutated(base: () => Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.oneof(plant, fc.constant(REMOVE))).map(([steps, value]) => {
    const root = base();
    let parent: unknown = root;
    for (const [index, step] of steps.entries()) {
      if (typeof parent !== 'object' || parent === null) break;
      const keys = Object.keys(parent);
      if (keys.length === 0) break;
      const key = keys[step % keys.length] as string;
      const child = (parent as Record<string, unknown>)[key];
      if (index === steps.length - 1 || typeof child !== 'object' || child === null) {
        if (value === REMOVE) delete (parent as Record<string, unknown>)[key];
        else (parent as Record<string, unknown>)[key] = value;
        break;
      }
      parent = child;
    }
    return root;
  });
}

const reportWithChecks = () =>
  rawReport('node-b', {
    checks: [
      { id: 'kernel.version', status: 'warn', message: 'k'.repeat(400) },
      { id: 'dev.kvm', status: 'pass', message: '/dev/kvm' },
    ],
  });

describe('objects kept on arrival', () => {
  it('narrowed one by one, give the gate the answer the whole snapshot gives (property)', () => {
    const snapshot = fc
      .record({
        nodes: fc.array(fc.oneof(mutated(() => rawNode('node-a', { labels: { 'virtgate.io/ready': 'true' } })), mutated(() => rawNode('node-b'))), { maxLength: 3 }),
        nodeValidations: fc.array(fc.oneof(mutated(() => rawReport('node-a')), mutated(reportWithChecks), mutated(() => rawReport('node-b', { ready: false }))), { maxLength: 3 }),
      })
      .map((parts) => healthyCluster(parts));
    fc.assert(
      fc.property(snapshot, (input) => {
        // What the aggregator does: keep each object narrowed (keep.ts), then build the model per recompute.
        const kept = { ...input, nodes: input.nodes.map(keepNode), reports: input.nodeValidations.map(keepReport) };
        expect(evaluateGate(modelOf(kept), DATA, DEFAULT_GATE_CONFIG, NOW)).toEqual(gate(input, DATA, DEFAULT_GATE_CONFIG, NOW));
      }),
      { numRuns: RUNS },
    );
  });

  it('drop what the gate does not read: images, managedFields, host facts, long messages', () => {
    const node = rawNode('node-a') as { metadata: Record<string, unknown>; status: Record<string, unknown> };
    node.metadata.managedFields = [{ manager: 'kubelet', fieldsV1: { 'f:status': { big: 'x'.repeat(10_000) } } }];
    node.metadata.annotations = { 'node.alpha.kubernetes.io/ttl': '0', huge: 'y'.repeat(10_000) };
    node.status.images = Array.from({ length: 50 }, (_, i) => ({ names: [`registry.example/image-${i}:latest`], sizeBytes: 1e8 }));
    const report = rawReport('node-a') as { status: Record<string, unknown> };
    report.status.vhv = { lines: Array.from({ length: 40 }, () => 'QEMU: Checking for hardware virtualization : PASS') };
    report.status.checks = [{ id: 'dev.kvm', status: 'pass', message: 'm'.repeat(50_000), hint: 'h'.repeat(5000), observed: { big: 'z'.repeat(5000) } }];
    const nodeText = JSON.stringify(keepNode(node));
    const reportText = JSON.stringify(keepReport(report));
    expect(nodeText).not.toContain('managedFields');
    expect(nodeText).not.toContain('images');
    expect(nodeText).not.toContain('annotations');
    expect(reportText).not.toContain('vhv');
    expect(reportText).not.toContain('hint');
    expect(reportText).not.toContain('observed');
    expect(reportText.length).toBeLessThan(2000);
    expect(nodeText.length).toBeLessThan(1500);
  });

  it('accept client-node typed objects: a Date creationTimestamp becomes its ISO string', () => {
    const node = rawNode('node-a') as { metadata: Record<string, unknown> };
    node.metadata.creationTimestamp = new Date('2026-01-01T00:00:00Z');
    expect(keepNode(node)?.creationTimestamp).toBe('2026-01-01T00:00:00.000Z');
  });

  it('compare equal across updates that change only what the gate does not read (no recompute)', () => {
    const before = rawNode('node-a') as { status: { conditions: Array<Record<string, unknown>> } };
    const after = structuredClone(before);
    for (const condition of after.status.conditions) condition.lastHeartbeatTime = '2026-12-02T12:05:00Z';
    expect(keepNode(after)).toEqual(keepNode(before));
  });

  it('never throw', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); }, ownKeys: () => { throw new Error('boom'); } });
    expect(keepNode(hostile)).toBeNull();
    expect(keepReport(hostile)).toEqual({ state: 'invalid', name: null, reason: 'unreadable object' });
  });
});

