/**
 * Faults of the real node, with the chart installed as a user installs it:
 *  - the agent pod deleted through the API (what `kubectl delete pod` does): the DaemonSet
 *    recreates it and the new agent takes over;
 *  - the kubelet SIGKILLed (a crash, no signal it could handle) and started again exactly as at
 *    first: the agent's container keeps running under its shim, and its pod keeps or regains
 *    Ready.
 * In both, no write in the fault window removed or changed a `virtgate.io/` label, set the
 * `VirtualizationReady` condition to another status, changed the NodeValidation's verdict or
 * deleted it: judged from the audit log's request bodies (test/lab/support/audit-flaps.ts), so even a
 * flap undone a moment later counts. Afterwards the labels, condition and report agree with this
 * machine as the test reads it for itself (host-truth.ts), every check reads as it did before
 * the faults, and a foreign label and taint set before the faults are still there. Each fault is written to the fault ledger (test/faults/ledger.ts); the
 * census and the flap count run whether or not the fault recovered.
 */
import { CoreV1Api, CustomObjectsApi, KubeConfig, type V1Pod, type V1Taint } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nodeView, strategicMergePatch } from '../lab/chart/cluster.ts';
import { CHART_DIR, helm, helmOk } from '../lab/chart/helm.ts';
import { AuditLog, type AuditEvent } from '../lab/controlplane/audit.ts';
import { Fault } from '../faults/ledger.ts';
import { nodeAgentReplacedBound, nodeKubeletRestartBound } from '../faults/recovery-bounds.ts';
import { sleep } from '../faults/settle.ts';
import { census } from '../faults/survivors.ts';
import { flapsIn, type PublishedBefore } from '../lab/support/audit-flaps.ts';
import { waitFor } from '../lab/support/wait.ts';
import { nodeControl } from '../lab/node/control.ts';
import { imageValues, isReady, NS, podsOf, readyPod, RELEASE } from '../lab/node/release.ts';
import { disagreements, type HostReading, readHost, statusesOf } from './host-truth.ts';

const node = inject('realNode');
const admin = new KubeConfig();
admin.loadFromFile(node.controlPlane.adminKubeconfig);
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const audit = new AuditLog(node.controlPlane.auditLog);
// What virtgate publishes, written out as its docs name it (docs/agent.md), not imported from it.
const API_GROUP = 'virtgate.io';
const API_VERSION = 'v1alpha1';
const NODE_VALIDATION_PLURAL = 'nodevalidations';
const CONDITION_TYPE = 'VirtualizationReady';
const keys = { prefix: 'virtgate.io', labels: { ready: 'virtgate.io/ready', tier: 'virtgate.io/tier' } };
const AGENT_SA = `system:serviceaccount:${NS}:${RELEASE}-agent`;

/** Someone else's label and taint on the node (PreferNoSchedule: the DaemonSet must still place its pod). */
const FOREIGN_LABELS = { 'team.example.com/owner': 'node-faults' };
const FOREIGN_TAINTS: V1Taint[] = [{ key: 'example.com/dedicated', value: 'virt', effect: 'PreferNoSchedule' }];
/** How long the kubelet stays dead: well inside the node lifecycle controller's grace period. */
const KUBELET_DOWN_MS = 8_000;

let host: HostReading;
/** Each check's status once the agent first published: a fault must not change any. */
let checksBefore: Record<string, string>;

interface Report {
  status?: { tier?: string; ready?: boolean; checks?: Array<{ id: string; status: string }> };
}

async function readReport(): Promise<Report | undefined> {
  try {
    return (await custom.getClusterCustomObject({ group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: node.nodeName })) as Report;
  } catch {
    return undefined;
  }
}

/** Every way the node's published state disagrees with this machine, or with the checks as they read before the faults. */
async function mismatches(): Promise<string[]> {
  const view = await nodeView(core, node.nodeName);
  const report = await readReport();
  if (!report?.status) return ['no NodeValidation'];
  const checks = statusesOf(report.status.checks);
  const problems = disagreements(host, {
    caller: 'agent',
    tier: report.status.tier,
    ready: report.status.ready,
    checks,
    labels: { ready: view.labels[keys.labels.ready], tier: view.labels[keys.labels.tier] },
    condition: view.conditions[CONDITION_TYPE],
  });
  if (checksBefore) {
    for (const [id, status] of Object.entries(checksBefore)) if (checks[id] !== status) problems.push(`check ${id}: ${checks[id] ?? 'absent'} (was ${status})`);
  }
  return problems;
}

/** What the node publishes now: the flaps are judged against it. */
async function publishedNow(): Promise<PublishedBefore> {
  const view = await nodeView(core, node.nodeName);
  const report = await readReport();
  return {
    nodeName: node.nodeName,
    prefix: keys.prefix,
    labels: Object.fromEntries(Object.entries(view.labels).filter(([key]) => key.startsWith(`${keys.prefix}/`))),
    conditionType: CONDITION_TYPE,
    conditionStatus: view.conditions[CONDITION_TYPE] ?? 'absent',
    report: { group: API_GROUP, resource: NODE_VALIDATION_PLURAL, ready: report?.status?.ready ?? false, tier: report?.status?.tier ?? 'absent' },
  };
}

/** The agent in `pod` answers /readyz with "published": it has probed and its publish landed. */
async function agentPublished(pod: V1Pod): Promise<true | undefined> {
  const port = pod.spec?.containers[0]?.ports?.find((p) => p.name === 'http')?.containerPort;
  const response = await fetch(`http://${pod.status?.podIP}:${port}/readyz`, { signal: AbortSignal.timeout(3000) });
  return response.ok && (await response.text()).startsWith('published') ? true : undefined;
}

/** The agent's completed writes in the window, by the pod its token is bound to. */
function agentWrites(events: readonly AuditEvent[]): string {
  const byPod = new Map<string, number>();
  for (const event of events) {
    if (event.user.username !== AGENT_SA || !['create', 'update', 'patch', 'delete'].includes(event.verb) || (event.responseStatus?.code ?? 0) >= 300) continue;
    const pod = event.user.extra?.['authentication.kubernetes.io/pod-name']?.[0] ?? '?';
    byPod.set(pod, (byPod.get(pod) ?? 0) + 1);
  }
  return byPod.size === 0 ? 'no agent writes' : `agent writes: ${[...byPod].map(([pod, count]) => `${pod} ${count}`).join(', ')}`;
}

interface Judgement {
  flaps: string[];
  lost: string[];
  /** Completed writes to the Node (and its status) and its NodeValidation in the window: what the flaps were judged from. */
  writes: number;
}

function writesJudged(events: readonly AuditEvent[]): number {
  return events.filter(
    (e) =>
      ['update', 'patch', 'delete'].includes(e.verb) &&
      e.objectRef?.name === node.nodeName &&
      (e.objectRef.resource === 'nodes' || e.objectRef.resource === NODE_VALIDATION_PLURAL) &&
      (e.responseStatus?.code ?? 0) < 300,
  ).length;
}

/**
 * The census of a fault, run whether or not it recovered: the Node, its NodeValidation, every
 * `virtgate.io/` label as it was before, the condition, the foreign label and taint; and every
 * flap the audit log shows since `mark`. Each one is an object lost in the ledger.
 */
async function judge(fault: Fault, before: PublishedBefore, mark: number): Promise<Judgement> {
  const events = await audit.since(mark);
  const flaps = flapsIn(events, before);
  const counted = await census(admin, [{ name: node.nodeName, labels: { ...before.labels, ...FOREIGN_LABELS }, taints: FOREIGN_TAINTS, report: true }]);
  const condition = (await nodeView(core, node.nodeName)).conditions[CONDITION_TYPE];
  const lost = condition === before.conditionStatus ? counted.lost : [...counted.lost, `condition ${CONDITION_TYPE}=${condition ?? 'absent'} (was ${before.conditionStatus})`];
  fault.objects(counted.checked + 1, lost.length + flaps.length);
  const writes = writesJudged(events);
  fault.detail(`${writes} writes to the Node and its report judged, ${flaps.length} flaps; ${agentWrites(events)}`);
  return { flaps, lost, writes };
}

beforeAll(async () => {
  host = readHost();
  await helmOk(node.controlPlane.binDir, ['install', RELEASE, CHART_DIR, '--namespace', NS, '--create-namespace', ...imageValues(node.images)], node.controlPlane.adminKubeconfig);
  const agent = await readyPod(core, 'agent');
  await waitFor('the agent to publish', () => agentPublished(agent), 120_000, 250);
  await waitFor('the published state to agree with this machine', async () => ((await mismatches()).length === 0 ? true : undefined), 60_000, 250);
  checksBefore = statusesOf((await readReport())?.status?.checks);
  await core.patchNode({ name: node.nodeName, body: { metadata: { labels: FOREIGN_LABELS }, spec: { taints: FOREIGN_TAINTS } } }, strategicMergePatch);
});

/** The node as this file found it, for the project's later files: the foreign label and taint go. */
afterAll(async () => {
  try {
    // A Node's taints are one list (no merge key): it is written whole, minus the foreign taints, at the version read.
    const current = await core.readNode({ name: node.nodeName });
    const foreign = new Set(FOREIGN_TAINTS.map((t) => `${t.key}:${t.effect}`));
    const taints = (current.spec?.taints ?? []).filter((t) => !foreign.has(`${t.key}:${t.effect}`));
    const labels = Object.fromEntries(Object.keys(FOREIGN_LABELS).map((key) => [key, null]));
    await core.patchNode({ name: node.nodeName, body: { metadata: { labels, resourceVersion: current.metadata?.resourceVersion }, spec: { taints } } }, strategicMergePatch);
  } finally {
    await helm(node.controlPlane.binDir, ['uninstall', RELEASE, '--namespace', NS, '--timeout', '2m'], node.controlPlane.adminKubeconfig);
  }
  const left = (await core.readNode({ name: node.nodeName })).spec?.taints ?? [];
  expect(left.filter((t) => t.key === FOREIGN_TAINTS[0]!.key), 'the foreign taint this file added').toEqual([]);
});

describe('faults on the real node', () => {
  it('the agent pod deleted: the DaemonSet recreates it, the new agent takes over, nothing flaps', async () => {
    const fault = new Fault('node-agent-pod-delete', 'agent pod deleted through the API, recreated by the DaemonSet');
    fault.bound(nodeAgentReplacedBound());
    let judged: Judgement | undefined;
    let old: V1Pod | undefined;
    let fresh: V1Pod | undefined;
    try {
      old = await readyPod(core, 'agent');
      const before = await publishedNow();
      const mark = await audit.mark();
      try {
        await core.deleteNamespacedPod({ namespace: NS, name: old.metadata?.name ?? '' });
        fault.injected();
        fault.cleared();
        fresh = await fault.converge(async () => {
          const pod = await waitFor(
            "the DaemonSet's new agent pod to be Ready",
            async () => (await podsOf(core, 'agent')).find((p) => isReady(p) && p.metadata?.uid !== old?.metadata?.uid && !p.metadata?.deletionTimestamp),
            180_000,
            250,
          );
          await waitFor('the new agent to publish', () => agentPublished(pod), 60_000, 250);
          await waitFor('the published state to agree with this machine and with the checks before', async () => ((await mismatches()).length === 0 ? true : undefined), 60_000, 250);
          await waitFor('the old agent pod to be gone', async () => ((await podsOf(core, 'agent')).some((p) => p.metadata?.uid === old?.metadata?.uid) ? undefined : true), 60_000, 250);
          return pod;
        });
      } finally {
        judged = await judge(fault, before, mark);
      }
    } finally {
      fault.detail(`${old?.metadata?.name ?? '?'} → ${fresh?.metadata?.name ?? 'none'}`);
      fault.finish();
    }
    expect(fresh?.spec?.nodeName).toBe(node.nodeName);
    expect(judged?.flaps).toEqual([]);
    expect(judged?.lost).toEqual([]);
    expect(await mismatches()).toEqual([]);
  });

  it('the kubelet SIGKILLed and started again: the agent keeps running and Ready, nothing flaps', async () => {
    const fault = new Fault('node-kubelet-kill', 'kubelet SIGKILLed, down 8 s, started again the same way');
    fault.bound(nodeKubeletRestartBound());
    let judged: Judgement | undefined;
    const notReady: string[] = [];
    let pod: V1Pod | undefined;
    let after: V1Pod | undefined;
    try {
      pod = await readyPod(core, 'agent');
      const restartsBefore = pod.status?.containerStatuses?.[0]?.restartCount;
      const before = await publishedNow();
      const mark = await audit.mark();
      // The pod's Ready condition as the API server holds it, every 250 ms through the fault.
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          const current = await core.readNamespacedPod({ namespace: NS, name: pod?.metadata?.name ?? '' }).catch(() => undefined);
          if (current && !isReady(current)) notReady.push(new Date().toISOString());
          await sleep(250);
        }
      })();
      try {
        await nodeControl('kubelet/kill');
        fault.injected();
        // With its kubelet dead the agent still probes and answers: nothing it does depends on it.
        await sleep(KUBELET_DOWN_MS);
        const stillPublished = await agentPublished(pod).catch(() => undefined);
        const restartedAt = Date.now();
        await nodeControl('kubelet/start');
        fault.cleared();
        await fault.converge(async () => {
          await waitFor(
            'the restarted kubelet to post the node status',
            async () => {
              const ready = (await core.readNode({ name: node.nodeName })).status?.conditions?.find((c) => c.type === 'Ready');
              const heartbeat = ready?.lastHeartbeatTime ? new Date(ready.lastHeartbeatTime).getTime() : 0;
              return ready?.status === 'True' && heartbeat >= restartedAt - 1000 ? true : undefined;
            },
            120_000,
            250,
          );
          after = await readyPod(core, 'agent', 120_000);
          await waitFor('the agent to answer published', () => agentPublished(after as V1Pod), 60_000, 250);
          await waitFor('the published state to agree with this machine and with the checks before', async () => ((await mismatches()).length === 0 ? true : undefined), 60_000, 250);
        });
        fault.detail(
          `agent answered published while the kubelet was dead: ${stillPublished === true}; pod Ready=False seen ${notReady.length} times; restarts ${restartsBefore} → ${after?.status?.containerStatuses?.[0]?.restartCount}`,
        );
      } finally {
        watching = false;
        await watcher;
        await nodeControl('kubelet/start').catch(() => undefined);
        judged = await judge(fault, before, mark);
      }
      // The same pod, its container never restarted: the kubelet's death touched no container.
      expect(after?.metadata?.uid).toBe(pod.metadata?.uid);
      expect(after?.status?.containerStatuses?.[0]?.restartCount).toBe(restartsBefore);
    } finally {
      fault.finish();
    }
    expect(judged?.flaps).toEqual([]);
    expect(judged?.lost).toEqual([]);
    // The restarted kubelet posted the node's status: the flaps were judged from real writes.
    expect(judged?.writes).toBeGreaterThan(0);
    expect(await mismatches()).toEqual([]);
  });

  it('the flap check sees a flap in this audit log: a label flipped behind the agent, which puts it back', async () => {
    // Not a fault of the ledger: it shows that the check above reads this control plane's audit
    // log as it is (bodies present, the patch format understood), so its 0 is not for want of evidence.
    const before = await publishedNow();
    const mark = await audit.mark();
    const flipped = before.labels[keys.labels.ready] === 'true' ? 'false' : 'true';
    await core.patchNode({ name: node.nodeName, body: { metadata: { labels: { [keys.labels.ready]: flipped } } } }, strategicMergePatch);
    await waitFor('the agent to put its label back', async () => ((await mismatches()).length === 0 ? true : undefined), 60_000, 250);
    const flaps = flapsIn(await audit.since(mark), before);
    expect(flaps).toHaveLength(1);
    expect(flaps[0]).toContain(`label ${keys.labels.ready}=${flipped} (was ${before.labels[keys.labels.ready]})`);
    expect(flaps[0]).toContain('virtgate-test-admin');
  });
});
