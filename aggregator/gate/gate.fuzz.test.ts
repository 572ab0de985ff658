import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../test/lab/support/fuzz-runs.ts';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import type { ClusterSnapshot, CustomResourceObservation } from '../model/snapshot.ts';
import { healthyCluster, listed, NOW, rawKubeVirt, rawNode, rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { DEFAULT_VERSIONS_FILE } from '../versions/load.ts';
import { parseVersionData } from '../versions/parse.ts';
import { gate } from './gate.ts';
import { GATE_CHECK_IDS, GATE_STATUSES, type GateResult } from '../documents/gate.ts';
import { worstStatus } from './status.ts';

/**
 * Hostile and malformed objects must never make the gate throw, and it must always answer every
 * check. Runs are kept modest: the machine is shared.
 */
const DATA = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');
/** VIRTGATE_FUZZ_RUNS raises the count for a deeper local run; the default stays modest. */
const RUNS = fuzzRuns(150);

/** Anything JSON-ish and worse: null prototypes, odd keys, big numbers, nested junk. */
const junk = fc.anything({ maxDepth: 3, maxKeys: 5, withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withBigInt: true, withDate: true });

/** A value to plant in a valid object: junk, or a type that is nearly right. */
const plant = fc.oneof(
  junk,
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', 'True', 'hardware', 'emulation', 'none', 'Deployed', 'v1.35.2-eks-x', 'docker://1', 'NoSchedule', 'In', 'Exists', '__proto__'),
  fc.constantFrom(0, -1, 1e308, Number.NaN, true, null, undefined, [], {}),
  fc.constant('x'.repeat(100_000)),
);

/** Replaces the value at a random path of a valid object, so most of it still looks right. */
function mutated(base: () => unknown): fc.Arbitrary<unknown> {
  return fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), plant).map(([steps, value]) => {
    const root = base();
    let parent: unknown = root;
    for (const [index, step] of steps.entries()) {
      if (typeof parent !== 'object' || parent === null) break;
      const keys = Object.keys(parent);
      if (keys.length === 0) break;
      const key = keys[step % keys.length] as string;
      const child = (parent as Record<string, unknown>)[key];
      if (index === steps.length - 1 || typeof child !== 'object' || child === null) {
        (parent as Record<string, unknown>)[key] = value;
        break;
      }
      parent = child;
    }
    return root;
  });
}

const node = fc.oneof(junk, mutated(() => rawNode('node-a', { labels: { 'virtgate.io/ready': 'true' } })), mutated(() => rawNode('node-b')));
const report = fc.oneof(junk, mutated(() => rawReport('node-a')), mutated(() => rawReport('node-b', { ready: false })));
const kubevirtItem = fc.oneof(junk, mutated(() => rawKubeVirt({ nodePlacement: { nodeSelector: { a: 'b' }, tolerations: [{ operator: 'Exists' }] } })));
const observation: fc.Arbitrary<CustomResourceObservation> = fc.oneof(
  fc.constant({ state: 'crd-absent' } as const),
  fc.array(kubevirtItem, { maxLength: 3 }).map((items) => listed(...items)),
  fc.string({ maxLength: 50 }).map((reason) => ({ state: 'unknown', reason }) as const),
  junk as fc.Arbitrary<CustomResourceObservation>,
);

const snapshot: fc.Arbitrary<ClusterSnapshot> = fc.record({
  serverGitVersion: fc.oneof(junk, fc.constantFrom('v1.35.2-eks-4f2a9b1', 'v1.36.0', 'v999999999999999999999.1.1')),
  nodes: fc.array(node, { maxLength: 6 }),
  nodeValidations: fc.array(report, { maxLength: 6 }),
  kubevirt: observation,
  cdi: observation,
});

function assertWellFormed(result: GateResult): void {
  expect(result.checks.map((check) => check.id)).toEqual([...GATE_CHECK_IDS]);
  for (const check of result.checks) {
    expect(GATE_STATUSES).toContain(check.status);
    expect(typeof check.message).toBe('string');
    expect(check.message).not.toMatch(/^internal error/);
    expect(check.message.length).toBeLessThan(2000);
  }
  expect(result.result).toBe(worstStatus(result.checks.map((check) => check.status)));
  const json = JSON.stringify(result);
  expect(JSON.parse(json)).toEqual(result);
  // Evidence and messages stay small whatever the input held (a 100 kB string among them).
  expect(JSON.stringify(result.checks).length).toBeLessThan(40_000);
}

describe('gate fuzz', () => {
  it('never throws on arbitrary snapshots and always answers every check', () => {
    fc.assert(
      fc.property(snapshot, (input) => {
        assertWellFormed(gate(input, DATA, DEFAULT_GATE_CONFIG, NOW));
      }),
      { numRuns: RUNS },
    );
  });

  it('never throws when one field of a healthy cluster is replaced with junk', () => {
    fc.assert(
      fc.property(mutated(() => healthyCluster()), (input) => {
        assertWellFormed(gate(input as ClusterSnapshot, DATA, DEFAULT_GATE_CONFIG, NOW));
      }),
      { numRuns: RUNS },
    );
  });

  it('survives sparse arrays (found by this fuzz test: map() keeps holes)', () => {
    const sparse = [, rawReport('node-a'), ,];
    assertWellFormed(gate({ ...healthyCluster(), nodes: [, rawNode('node-a')], nodeValidations: sparse, kubevirt: { state: 'listed', items: [, rawKubeVirt(), ,] }, cdi: { state: 'listed', items: [, ,] } }, DATA, DEFAULT_GATE_CONFIG, NOW));
  });

  it('survives objects whose every property access throws', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); }, ownKeys: () => { throw new Error('boom'); } });
    const poisoned = { ...healthyCluster(), nodes: [hostile, rawNode('node-a')], nodeValidations: [hostile], kubevirt: listed(hostile), cdi: hostile as never, serverGitVersion: hostile };
    assertWellFormed(gate(poisoned, DATA, DEFAULT_GATE_CONFIG, NOW));
    assertWellFormed(gate(hostile as ClusterSnapshot, DATA, DEFAULT_GATE_CONFIG, NOW));
  });
});
