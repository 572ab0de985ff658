import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { NodeValidation } from '../../core/report/schema.ts';
import {
  applyCondition,
  applyPatch,
  applyStatusOperations,
  bareNode,
  INCONCLUSIVE,
  keys,
  NOT_READY,
  outcome,
  pool,
  READY,
  settings,
  TAINTING,
} from '../../test/lab/agent/publish.ts';
import { OUTSIDE_POOL } from '../desired/share-guard.ts';
import type { TaintConfig } from '../config.ts';
import type { HeartbeatDue } from '../heartbeat.ts';
import { decide } from './decision.ts';
import { type Plan, plan as planDecided, type PlanSettings } from './plan.ts';
import type { ProbeOutcome } from './probe-outcome.ts';
import type { PublishRead } from './read.ts';

const T0 = new Date('2026-12-05T10:00:00Z');
const T1 = new Date('2026-12-05T10:05:00Z');
const NO_HEARTBEAT: HeartbeatDue = { condition: false, report: false };
const TAINT = keys.notReadyTaint;

/** Decides and plans from one read, as a publish attempt does (attempt.ts). */
function plan(read: PublishRead, probe: ProbeOutcome, config: PlanSettings, heartbeat: HeartbeatDue, now: Date): Plan {
  return planDecided(decide(probe, read.node, config), read, config, heartbeat, now);
}
const taintWanted = (node: V1Node, probe: ProbeOutcome, config: PlanSettings) => decide(probe, node, config).wantsTaint;

interface Cluster {
  node: V1Node;
  report: NodeValidation | undefined;
}

/** Plans one publish and applies it as the API server would, so the next plan sees the result. */
function publishOnce(state: Cluster, v: typeof READY, poolRead: PublishRead['pool'], now: Date, config: TaintConfig = TAINTING, heartbeat = NO_HEARTBEAT) {
  const decided = plan({ ...state, pool: poolRead }, outcome(v), settings(config), heartbeat, now);
  let node = decided.patch ? applyPatch(state.node, decided.patch) : state.node;
  if (decided.condition.write) node = applyCondition(node, decided.condition.write);
  let report = state.report ?? (decided.report.create ? { ...decided.report.create, metadata: { ...decided.report.create.metadata, generation: 1 } } : undefined);
  if (report && decided.report.write) report = applyStatusOperations(report, decided.report.write.operations);
  return { plan: decided, cluster: { node, report } };
}

const empty = (): Cluster => ({ node: bareNode('node-a'), report: undefined });
const readyCluster = () => publishOnce(empty(), READY, undefined, T0).cluster;
const taintOf = (node: V1Node) => node.spec?.taints?.find((t) => t.key === TAINT);

describe('plan', () => {
  it('a first publish writes labels, condition and a new report, and sends no Event', () => {
    const { plan: first } = publishOnce(empty(), READY, undefined, T0);
    expect(first.patch?.labels).toMatchObject({ 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware' });
    expect(first.patch?.taints).toBeUndefined();
    expect(first.condition.write).toMatchObject({ status: 'True', reason: 'HardwareVirtualization', lastHeartbeatTime: T0, lastTransitionTime: T0 });
    expect(first.report.create?.metadata.name).toBe('node-a');
    expect(first.report.write?.whole).toBe(true);
    expect(first.event).toBeUndefined();
  });

  it('a ready node that is already published writes nothing', () => {
    const decided = plan({ ...readyCluster(), pool: undefined }, outcome(READY), settings(), NO_HEARTBEAT, T1);
    expect(decided.patch).toBeUndefined();
    expect(decided.condition.write).toBeUndefined();
    expect(decided.condition.heartbeatAt).toEqual(T0);
    expect(decided.report).toMatchObject({ create: undefined, write: undefined, heartbeatAt: T0 });
    expect(decided.event).toBeUndefined();
    expect(decided.taint).toEqual({ policy: 'not-ready', applied: false });
  });

  it('a verdict change writes the labels, the condition, the report and one Event', () => {
    const decided = plan({ ...readyCluster(), pool: pool(['node-a'], ['node-b'], ['node-c'], ['node-d']) }, outcome(NOT_READY), settings(), NO_HEARTBEAT, T1);
    expect(decided.patch?.labels).toMatchObject({ 'virtgate.io/ready': 'false', 'virtgate.io/tier': 'none' });
    expect(decided.condition.write).toMatchObject({ status: 'False', reason: 'NoTunDevice', lastTransitionTime: T1 });
    expect(decided.report.write?.whole).toBe(true);
    expect(decided.report.changed).toEqual(expect.arrayContaining(['ready', 'tier']));
    expect(decided.event).toMatchObject({ reason: 'VirtualizationNotReady', type: 'Warning', from: { ready: true, tier: 'hardware' } });
  });

  it('a held verdict touches no label, taint or Event, and once published writes nothing', () => {
    const { plan: held, cluster } = publishOnce(readyCluster(), INCONCLUSIVE, undefined, T1);
    expect(held.effective).toMatchObject({ held: true, ready: true, tier: 'hardware' });
    expect(held.patch).toBeUndefined();
    expect(held.event).toBeUndefined();
    expect(held.condition.write?.reason).toBe('VerdictHeld');
    const again = plan({ ...cluster, pool: undefined }, outcome(INCONCLUSIVE), settings(), NO_HEARTBEAT, T1);
    expect([again.patch, again.condition.write, again.report.write, again.event]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('adds the taint when the guard allows it, with the resourceVersion it was read at', () => {
    const state = readyCluster();
    expect(taintWanted(state.node, outcome(NOT_READY), settings())).toBe(true);
    const decided = plan({ ...state, pool: pool(['node-a'], ['node-b'], ['node-c'], ['node-d']) }, outcome(NOT_READY), settings(), NO_HEARTBEAT, T1);
    expect(decided.patch?.taints).toEqual([{ key: TAINT, value: 'true', effect: 'NoSchedule', timeAdded: T1 }]);
    expect(decided.patch?.resourceVersion).toBe(state.node.metadata?.resourceVersion);
    expect(decided.addsTaint).toBe(true);
    expect(decided.taint).toEqual({ policy: 'not-ready', applied: true });
    expect(decided.report.write?.fields.taint).toEqual({ policy: 'not-ready', applied: true });
  });

  it('refuses the taint when the pool is at its share, and says why', () => {
    const full = pool(['node-a'], ['node-b', '2026-12-05T09:00:00Z'], ['node-c', '2026-12-05T09:00:00Z'], ['node-d']);
    const decided = plan({ ...readyCluster(), pool: full }, outcome(NOT_READY), settings(), NO_HEARTBEAT, T1);
    expect(decided.patch?.taints).toBeUndefined();
    expect(decided.patch?.labels).toMatchObject({ 'virtgate.io/ready': 'false' });
    expect(decided.addsTaint).toBe(false);
    expect(decided.taintRefused).toBe('3 of 4 pool nodes would carry the taint; the limit is 2 (50%)');
    expect(decided.taint).toEqual({ policy: 'not-ready', applied: false, refused: decided.taintRefused });
  });

  it('refuses the taint to a node outside the pool selector', () => {
    const decided = plan({ ...readyCluster(), pool: OUTSIDE_POOL }, outcome(NOT_READY), settings(), NO_HEARTBEAT, T1);
    expect(decided.patch?.taints).toBeUndefined();
    expect(decided.taintRefused).toBe('this node is outside the taint pool selector');
  });

  it('after tainting, the re-check gives the taint back when nodes that failed at the same moment exceed the share', () => {
    const state = readyCluster();
    const read: PublishRead = { ...state, pool: pool(['node-a'], ['node-b'], ['node-c'], ['node-d']) };
    const decision = decide(outcome(NOT_READY), read.node, settings());
    const first = planDecided(decision, read, settings(), NO_HEARTBEAT, T1);
    const written = applyPatch(state.node, first.patch ?? {});
    // node-b and node-c tainted a moment earlier: node-a ranks third of a limit of two.
    const seen = pool(['node-a', T1.toISOString()], ['node-b', '2026-12-05T10:04:59Z'], ['node-c', '2026-12-05T10:04:59Z'], ['node-d']);
    // The second round of an attempt: the same decision, the Node as written and the pool read again.
    const again = planDecided(decision, { ...read, node: written, pool: seen }, settings(), NO_HEARTBEAT, T1);
    expect(again.patch?.taints).toEqual([]);
    expect(again.patch?.resourceVersion).toBe(written.metadata?.resourceVersion);
    expect(again.taint).toMatchObject({ applied: false, refused: '3 of 4 pool nodes would carry the taint; the limit is 2 (50%)' });
    expect(again.report.write?.fields.taint).toEqual(again.taint);
    expect(again.event).toEqual(first.event);
  });

  it('a node that already carries the taint asks the guard again on every publish and gives it back when it ranks past the share', () => {
    // Its own re-check came before node-c's taint was visible; a later publish sees all three.
    const tainted = publishOnce(readyCluster(), NOT_READY, pool(['node-a'], ['node-b'], ['node-c'], ['node-d']), T1).cluster;
    expect(taintOf(tainted.node)?.timeAdded).toEqual(T1);
    expect(taintWanted(tainted.node, outcome(NOT_READY), settings())).toBe(true);
    const seen = pool(['node-a', T1.toISOString()], ['node-b', '2026-12-05T10:04:00Z'], ['node-c', '2026-12-05T10:05:00Z'], ['node-d']);
    const decided = plan({ ...tainted, pool: seen }, outcome(NOT_READY), settings(), NO_HEARTBEAT, new Date('2026-12-05T10:06:00Z'));
    // Ranked by time, then name: node-b, node-a (10:05, "a" < "c"), node-c — node-a keeps it.
    expect(decided.patch).toBeUndefined();
    const later = pool(['node-a', T1.toISOString()], ['node-b', '2026-12-05T10:04:00Z'], ['node-c', '2026-12-05T10:04:30Z'], ['node-d']);
    const refused = plan({ ...tainted, pool: later }, outcome(NOT_READY), settings(), NO_HEARTBEAT, new Date('2026-12-05T10:06:00Z'));
    expect(refused.patch?.taints).toEqual([]);
    expect(refused.patch?.annotations?.[keys.ownershipAnnotation]).not.toContain(TAINT);
    expect(refused.taint).toMatchObject({ applied: false, refused: '3 of 4 pool nodes would carry the taint; the limit is 2 (50%)' });
  });

  it('lifts the registration taint once the node is ready under the bootstrap policy', () => {
    const bootstrap: TaintConfig = { ...TAINTING, policy: 'bootstrap', bootstrapKey: 'node.example.io/registering' };
    const node = bareNode('node-a');
    node.spec = { taints: [{ key: 'node.example.io/registering', effect: 'NoSchedule' }, { key: 'other', effect: 'NoSchedule' }] };
    const decided = plan({ node, report: undefined, pool: undefined }, outcome(READY), settings(bootstrap), NO_HEARTBEAT, T0);
    expect(decided.patch?.taints).toEqual([{ key: 'other', effect: 'NoSchedule' }]);
    expect(taintWanted(node, outcome(READY), settings(bootstrap))).toBe(false);
  });

  it('a due heartbeat refreshes only the object that is due, keeping its transition time', () => {
    const state = readyCluster();
    const condition = plan({ ...state, pool: undefined }, outcome(READY), settings(), { condition: true, report: false }, T1);
    expect(condition.patch).toBeUndefined();
    expect(condition.condition.write).toMatchObject({ lastHeartbeatTime: T1, lastTransitionTime: T0 });
    expect(condition.condition.heartbeatAt).toEqual(T1);
    expect(condition.report.write).toBeUndefined();
    const report = plan({ ...state, pool: undefined }, outcome(READY), settings(), { condition: false, report: true }, T1);
    expect(report.condition.write).toBeUndefined();
    expect(report.report.write).toEqual({
      fields: { probedAt: '2026-12-05T10:00:00.000Z', heartbeatAt: T1.toISOString() },
      whole: false,
      operations: [
        { op: 'add', path: '/status/probedAt', value: '2026-12-05T10:00:00.000Z' },
        { op: 'add', path: '/status/heartbeatAt', value: T1.toISOString() },
      ],
    });
    expect(report.report.heartbeatAt).toEqual(T1);
  });

  it("leaves the canary's status.vmBoot alone: no write when only it differs, and a whole write keeps it", () => {
    const vmBoot = {
      status: 'True',
      reason: 'Booted',
      message: 'VIRTGATE-CANARY-OK',
      runAt: '2026-12-05T10:02:00.000Z',
      lastTransitionTime: '2026-12-05T10:02:00.000Z',
      nodeClass: 'intel-xeon-hardware-5.14-metal',
      classFailedRuns: 0,
      seconds: { scheduled: 0.4, guestMarker: 6.3 },
      canaryVersion: '0.1.0',
    } as const;
    const state = readyCluster();
    const withBoot: Cluster = { ...state, report: state.report && { ...state.report, status: state.report.status && { ...state.report.status, vmBoot } } };
    const quiet = plan({ ...withBoot, pool: undefined }, outcome(READY), settings(), NO_HEARTBEAT, T1);
    expect(quiet.report.write).toBeUndefined();

    const { plan: changed, cluster } = publishOnce(withBoot, NOT_READY, pool(['node-a'], ['node-b'], ['node-c'], ['node-d']), T1);
    expect(changed.report.write?.whole).toBe(true);
    expect(changed.report.changed).not.toContain('vmBoot');
    // Key by key once the status exists: never `status` whole, never vmBoot.
    expect(changed.report.write?.operations.map((operation) => operation.path)).not.toContain('/status');
    expect(changed.report.write?.operations.some((operation) => operation.path === '/status/vmBoot')).toBe(false);
    expect(cluster.report?.status?.vmBoot).toEqual(vmBoot);
    expect(cluster.report?.status).toMatchObject({ ready: false, tier: 'none' });
  });

  it('a whole write clears an optional key the report no longer has', () => {
    const state = readyCluster();
    // An inventory from an agent started with one; this agent has none.
    const inventory = { memoryBytes: 1 };
    const stale: Cluster = { ...state, report: state.report && { ...state.report, status: state.report.status && ({ ...state.report.status, inventory } as never) } };
    const { plan: decided, cluster } = publishOnce(stale, READY, undefined, T1);
    expect(decided.report.changed).toEqual(['inventory']);
    expect(decided.report.write?.operations).toContainEqual({ op: 'add', path: '/status/inventory', value: null });
    expect(cluster.report?.status && 'inventory' in cluster.report.status).toBe(false);
    expect(cluster.report?.status).toMatchObject({ ready: true, tier: 'hardware' });
  });
});
