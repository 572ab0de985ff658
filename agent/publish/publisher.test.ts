import type { V1Node, V1NodeCondition } from '@kubernetes/client-node';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { NodeValidation } from '../../core/report/schema.ts';
import type { StatusOperation } from '../desired/status-patch.ts';
import { applyCondition, applyPatch, applyStatusOperations, bareNode, keys, NOT_READY, outcome, READY, settings } from '../../test/lab/agent/publish.ts';
import type { HeartbeatDue } from '../heartbeat.ts';
import { AgentMetrics } from '../metrics.ts';
import type { NodeApi } from '../node-api.ts';
import type { NodePatch } from './plan/node-object.ts';
import { Publisher } from './publisher.ts';

/**
 * A fake API server: it stands in for timing and conflicts the real server cannot produce on
 * demand (another node's taint landing between two reads, a co-writer between read and patch).
 * The integration and faults tests (test/integration/agent.test.ts, test/faults/conflicts.test.ts)
 * cover the same paths against a real kube-apiserver.
 */
class FakeApi {
  node: V1Node = bareNode('node-a');
  report: NodeValidation | undefined;
  /** The other pool members, as the pool LIST returns them. */
  others: V1Node[] = ['node-b', 'node-c', 'node-d'].map((name) => bareNode(name));
  writes: string[] = [];
  reads: string[] = [];
  /** Called before each node patch; may change the stored node (a co-writer). */
  beforePatch: (() => void) | undefined;
  /** Called after each pool LIST (another node's taint becoming visible). */
  afterList: (() => void) | undefined;

  async readNode(): Promise<V1Node> {
    this.reads.push('node');
    return structuredClone(this.node);
  }
  async readNodeValidation(): Promise<NodeValidation | undefined> {
    this.reads.push('report');
    return structuredClone(this.report);
  }
  async nodeMatches(): Promise<boolean> {
    this.reads.push('matches');
    return true;
  }
  async listNodes(): Promise<V1Node[]> {
    this.reads.push('pool');
    const list = structuredClone([this.node, ...this.others]);
    this.afterList?.();
    return list;
  }
  async patchNode(patch: NodePatch): Promise<V1Node> {
    this.beforePatch?.();
    this.writes.push('node');
    if (patch.resourceVersion && patch.resourceVersion !== this.node.metadata?.resourceVersion) {
      throw Object.assign(new Error('Conflict'), { code: 409 });
    }
    this.node = applyPatch(this.node, patch);
    return structuredClone(this.node);
  }
  async patchCondition(condition: V1NodeCondition): Promise<V1Node> {
    this.writes.push('condition');
    this.node = applyCondition(this.node, condition);
    return structuredClone(this.node);
  }
  async createNodeValidation(object: NodeValidation): Promise<NodeValidation> {
    this.writes.push('report-create');
    this.report = { ...object, metadata: { ...object.metadata, generation: 1 } };
    return structuredClone(this.report);
  }
  async patchNodeValidationStatus(operations: StatusOperation[]): Promise<NodeValidation> {
    this.writes.push('report');
    if (!this.report) throw new Error('no report');
    this.report = applyStatusOperations(this.report, operations);
    return structuredClone(this.report);
  }
  async createEvent(): Promise<void> {
    this.writes.push('event');
  }
}

const NONE: HeartbeatDue = { condition: false, report: false };
const at = (minute: number) => new Date(Date.UTC(2026, 11, 5, 10, minute));

function publisher(api: FakeApi) {
  return new Publisher(api as unknown as NodeApi, settings(), new AgentMetrics('node-a'), pino({ level: 'silent' }), () => at(0));
}

describe('Publisher (read → plan → exporters)', () => {
  it('writes nothing between heartbeats, one object per heartbeat, and four objects on a verdict change', async () => {
    const api = new FakeApi();
    const pub = publisher(api);
    await pub.publish(outcome(READY), NONE, at(0));
    expect(api.writes).toEqual(['node', 'condition', 'report-create', 'report']);

    api.writes = [];
    await pub.publish(outcome(READY), NONE, at(1));
    expect(api.writes).toEqual([]);
    await pub.publish(outcome(READY), { condition: true, report: false }, at(10));
    expect(api.writes).toEqual(['condition']);
    api.writes = [];
    await pub.publish(outcome(READY), { condition: false, report: true }, at(15));
    expect(api.writes).toEqual(['report']);

    api.writes = [];
    const applied = await pub.publish(outcome(NOT_READY), NONE, at(20));
    expect(api.writes).toEqual(['node', 'condition', 'report', 'event']);
    expect(applied.taint).toEqual({ policy: 'not-ready', applied: true });
    expect(api.node.spec?.taints?.map((t) => t.key)).toEqual([keys.notReadyTaint]);
  });

  it('on 409 re-enters at the read and decides again from what the co-writer left', async () => {
    const api = new FakeApi();
    const pub = publisher(api);
    await pub.publish(outcome(READY), NONE, at(0));
    api.reads = [];
    api.writes = [];
    let coWrites = 1;
    api.beforePatch = () => {
      if (coWrites-- <= 0) return;
      // Someone adds a taint of their own between our read and our patch.
      api.node = applyPatch(api.node, { taints: [{ key: 'example.com/maintenance', effect: 'NoSchedule' }] });
    };
    const applied = await pub.publish(outcome(NOT_READY), NONE, at(20));
    expect(api.reads).toEqual(['node', 'report', 'matches', 'pool', 'node', 'report', 'matches', 'pool', 'pool']);
    expect(api.writes).toEqual(['node', 'node', 'condition', 'report', 'event']);
    expect(api.node.spec?.taints?.map((t) => t.key).sort()).toEqual(['example.com/maintenance', keys.notReadyTaint].sort());
    expect(applied.taint.applied).toBe(true);
  });

  it('gives the taint back when a node that failed at the same moment becomes visible only after its own taint', async () => {
    const api = new FakeApi();
    const pub = publisher(api);
    await pub.publish(outcome(READY), NONE, at(0));
    api.others[0]!.spec = { taints: [{ key: keys.notReadyTaint, effect: 'NoSchedule', timeAdded: at(19) }] };
    let lists = 0;
    api.afterList = () => {
      // node-c taints itself at the same moment; the first LIST does not show it yet.
      if (++lists === 1) api.others[1]!.spec = { taints: [{ key: keys.notReadyTaint, effect: 'NoSchedule', timeAdded: at(19) }] };
    };
    api.writes = [];
    const applied = await pub.publish(outcome(NOT_READY), NONE, at(20));
    expect(api.writes).toEqual(['node', 'node', 'condition', 'report', 'event']);
    expect(api.node.spec?.taints ?? []).toEqual([]);
    expect(applied.taint).toEqual({ policy: 'not-ready', applied: false, refused: '3 of 4 pool nodes would carry the taint; the limit is 2 (50%)' });
    expect(api.report?.status?.taint).toEqual(applied.taint);
  });

  it('a node that carries the taint reads the pool on every publish and gives it back once it ranks past the share', async () => {
    const api = new FakeApi();
    const pub = publisher(api);
    await pub.publish(outcome(NOT_READY), NONE, at(0));
    expect(api.node.spec?.taints?.map((t) => t.key)).toEqual([keys.notReadyTaint]);
    // Two nodes that failed earlier become visible only now (their re-checks raced ours).
    for (const other of api.others.slice(0, 2)) other.spec = { taints: [{ key: keys.notReadyTaint, effect: 'NoSchedule', timeAdded: new Date(Date.UTC(2026, 11, 5, 9)) }] };
    api.reads = [];
    api.writes = [];
    const applied = await pub.publish(outcome(NOT_READY), NONE, at(1));
    expect(api.reads).toEqual(['node', 'report', 'pool']);
    expect(api.writes).toEqual(['node', 'report']);
    expect(api.node.spec?.taints ?? []).toEqual([]);
    expect(applied.taint.refused).toBe('3 of 4 pool nodes would carry the taint; the limit is 2 (50%)');
  });
});
