/**
 * 409 Conflict from a concurrent writer: while the agent taints and untaints its node
 * (`--taint-policy not-ready`, following /dev/kvm going and coming back), another client writes
 * the same Node's labels and taints at one fixed rate for the whole test, with and without
 * resourceVersion. The agent's taint patches carry the resourceVersion they were computed from,
 * so a write between its read and its patch turns the patch into a 409, and the agent re-reads and
 * decides again. The agent taints and lifts the taint within a bound computed from its settings;
 * afterwards every label and taint the writer set is there and the agent's own state is right.
 *
 * Whether the writer's rhythm hits the agent's few milliseconds between read and patch is chance
 * (a fresh-clone run met 0 in 9 taint cycles), so the agent reaches the API server through
 * RecordingProxy, which holds the agent's first versioned Node patch after each host change until
 * the writer has landed one more write: one conflict arranged per taint change, exactly. The 409
 * is the real API server's; only its moment is arranged. The audit log counts the agent's 409s,
 * so the test knows it really exercised them.
 *
 * Each arranged conflict is its own ledger row, timed from the moment its write landed (the
 * agent's held patch then meets the 409) to the first look after it that finds the taint and the
 * published state right for the host. Conflicts are arranged only while the host change they
 * belong to is being followed, so each one's truth stays put until it is timed.
 */
import path from 'node:path';
import { CoreV1Api, type V1Taint } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeKeys } from '../../core/kube/names.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import type { AuditEvent } from '../lab/controlplane/audit.ts';
import { removeDevice, restoreDevice } from '../lab/hosts/build-host.ts';
import type { AgentProcess } from '../lab/processes/launch.ts';
import { AGENT_NAMESPACE, AGENT_SERVICE_ACCOUNT } from '../lab/support/agent-identity.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { ConcurrentWriter } from './concurrent-writer.ts';
import { type FaultNode, prepareFaultNode, runFaultAgent } from './fault-nodes.ts';
import { kubeconfigVia } from './kubeconfig-via.ts';
import { Fault } from './ledger.ts';
import { afterConflictBound, underConflictsBound } from './recovery-bounds.ts';
import { crashes, pidsOf } from './processes.ts';
import { unreadyAgent } from './readiness.ts';
import { type HeldRequest, RecordingProxy } from './recording-proxy.ts';
import { settle } from './settle.ts';
import { type Census, census } from './survivors.ts';
import { publishedMismatches, truthOf } from './truth.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const keys = nodeKeys();
const NAME = 'fault-conflict';
const POOL = { 'fault.example.com/pool': 'conflict' };
/**
 * The writer's rate, fixed for the whole test: 20 writes a second to this one Node, the whole of
 * kube-controller-manager's default client budget (--kube-api-qps 20) spent on one object; a busy
 * controller could reach it, none keeps it up for minutes on one Node.
 */
const WRITER_WRITES_PER_SECOND = 20;
/** Taint applied and lifted this many times; each change meets at least the one arranged 409. */
const CYCLES = 3;
/** How often the test looks for the taint. */
const TAINT_POLL_SECONDS = 0.2;
/** The longest the agent may take to taint (or untaint) under the writer, from the host change. */
const TAINT_BOUND = underConflictsBound(TAINT_POLL_SECONDS);
/** The longest the state may stay wrong after one arranged conflict, from its write. */
const CONFLICT_BOUND = afterConflictBound(TAINT_POLL_SECONDS);
let node: FaultNode;
let agent: AgentProcess;
let proxy: RecordingProxy;
/** Set while the test wants conflicts: the writer that lands a write before a held patch. */
let interposer: ConcurrentWriter | undefined;
/** The agent's Node patches that carried a resourceVersion, and the writes landed before one of them. */
let versionedPatches = 0;
/** Set at each host change: the next versioned patch of the agent meets an arranged conflict. */
let arrangeNext = false;
let interposedWrites = 0;
/** The host change being followed, for the rows' names. */
let phase = '';
/** Every arranged conflict: its ledger row, and its recovery being timed (resolves to why it failed, or undefined). */
const conflicts: Array<{ fault: Fault; recovery: Promise<string | undefined> }> = [];
/** Interposed writes still landing (one may have begun just before the phase ended). */
let landing: Promise<unknown> = Promise.resolve();

const list = (times: number[]) => (times.length === 0 ? 'never' : times.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', '));

const tainted = async () => ((await core.readNode({ name: NAME })).spec?.taints ?? []).some((taint) => taint.key === keys.notReadyTaint);

/** The agent's taint and published state are right for the host as it is now. */
async function stateRight(): Promise<boolean> {
  const truth = await truthOf(node);
  return (await tainted()) === !truth.ready && (await publishedMismatches(admin, node, truth)).length === 0;
}

/** Conflicts waiting for the state to be right again: each resolves at the first look begun after its write. */
const waiting: Array<{ since: number; resolve: () => void; reject: (error: Error) => void }> = [];
let looking = false;

/**
 * One observer for every waiting conflict (a poller each would load the API server and make the
 * agent meet more 409s than the test arranges): looks every poll interval while any waits.
 */
async function look(): Promise<void> {
  if (looking) return;
  looking = true;
  try {
    while (waiting.length > 0) {
      const startedAt = Date.now();
      const right = await stateRight().catch(() => false);
      for (const waiter of [...waiting]) {
        const settled = right && waiter.since <= startedAt;
        // The waits run to twice the bound, so a slow recovery is measured and fails the run by its bound.
        const late = !settled && Date.now() - waiter.since > 2 * CONFLICT_BOUND.ms;
        if (!settled && !late) continue;
        waiting.splice(waiting.indexOf(waiter), 1);
        if (settled) waiter.resolve();
        else waiter.reject(new Error(`the state was not right within ${2 * CONFLICT_BOUND.ms} ms`));
      }
      await new Promise((resolve) => setTimeout(resolve, TAINT_POLL_SECONDS * 1000));
    }
  } finally {
    looking = false;
  }
}

/** Resolves at the first look begun after now that finds the taint and published state right. */
function rightAgain(): Promise<void> {
  const since = Date.now();
  const promise = new Promise<void>((resolve, reject) => waiting.push({ since, resolve, reject }));
  void look();
  return promise;
}

/** A conflicting write landed: a row of its own, its recovery timed from now on. */
function conflictArranged(): void {
  const fault = new Fault('conflict-409', `conflict ${interposedWrites}: a write landed before the agent's patch (${phase})`);
  fault.bound(CONFLICT_BOUND);
  fault.injected();
  fault.cleared();
  const recovery = fault
    .converge(rightAgain)
    .then(
      () => undefined,
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        fault.detail(`not right again: ${message}`);
        return message;
      },
    );
  conflicts.push({ fault, recovery });
}

/**
 * Holds the agent's first versioned Node patch after a host change until one foreign write has
 * landed. One a change, so the test injects exactly 2 × CYCLES conflicts (a shrink shows in the
 * ledger); the agent's retry goes through unless the writer's own rhythm meets it by chance.
 */
async function interposeWrites(request: HeldRequest): Promise<void> {
  if (!interposer || request.method !== 'PATCH' || request.path.split('?')[0] !== `/api/v1/nodes/${NAME}`) return;
  if (!request.body.includes('"resourceVersion"')) return;
  versionedPatches += 1;
  if (!arrangeNext) return;
  arrangeNext = false;
  const arranged = interposer.interpose().then((landed) => {
    if (!landed) return;
    interposedWrites += 1;
    conflictArranged();
  });
  landing = Promise.all([landing, arranged]);
  await arranged;
}

/** Every conflict's recovery timed; throws with each that did not come. */
async function conflictsRecovered(): Promise<void> {
  await landing;
  const failed = (await Promise.all(conflicts.map((conflict) => conflict.recovery))).filter((message) => message !== undefined);
  if (failed.length > 0) throw new Error(`after ${failed.length} conflict(s) the state was not right again: ${failed.join('; ')}`);
}

beforeAll(async () => {
  await installCrd(admin);
  proxy = await RecordingProxy.start(cp.server, path.join(cp.dir, 'pki'), interposeWrites);
  node = await prepareFaultNode(admin, cp, NAME, 'rhel9', { labels: POOL });
  const viaProxy = await kubeconfigVia(node.kubeconfig, proxy.url, path.join(cp.dir, 'fault-conflict-via-proxy.kubeconfig'));
  agent = await runFaultAgent(node, ['--taint-policy', 'not-ready', '--taint-pool-selector', 'fault.example.com/pool=conflict', '--taint-max-share', '1'], viaProxy);
  await settle('the first verdict', async () => publishedMismatches(admin, node, await truthOf(node)), 60_000);
});

afterAll(async () => {
  await agent?.stop();
  await proxy?.close();
});

/** The agent's node patches the API server answered with 409. */
function agent409s(events: AuditEvent[]): number {
  return events.filter(
    (event) =>
      event.user.username === `system:serviceaccount:${AGENT_NAMESPACE}:${AGENT_SERVICE_ACCOUNT}` &&
      event.user.extra?.['authentication.kubernetes.io/node-name']?.[0] === NAME &&
      event.verb === 'patch' &&
      event.objectRef?.resource === 'nodes' &&
      event.responseStatus?.code === 409,
  ).length;
}

describe('409 conflicts from a concurrent writer', () => {
  it('keeps every label and taint of the writer, and applies and lifts its own taint right', async () => {
    const writer = new ConcurrentWriter(admin, NAME, { churnOnly: true, writesPerSecond: WRITER_WRITES_PER_SECOND });
    const processes = [{ label: 'agent', child: agent.child, logs: agent.logs, startedMessage: 'virtgate agent started' }];
    let counted: Census | undefined;
    let writerTaints: V1Taint[] = [];
    let agentConflicts = 0;
    const taintTimes: number[] = [];
    const liftTimes: number[] = [];
    let cycles = 0;
    let pids: ReturnType<typeof pidsOf> | undefined;
    let failure: string | undefined;
    try {
      pids = pidsOf(processes);
      const mark = await cp.audit.mark();
      writer.start();
      // A verdict flip and back under fire: the taint applied, then lifted, each timed from the
      // host change. The waits run to twice the bound, so a slow taint is measured and reported.
      // Conflicts are arranged only while a change is followed, and each is timed to the state
      // being right before the host changes again.
      const underFire = async (what: string, change: () => Promise<void>, done: () => Promise<boolean>) => {
        phase = `${what}, cycle ${cycles}`;
        interposer = writer;
        arrangeNext = true;
        await change();
        const changedAt = Date.now();
        await waitFor(what, async () => ((await done()) ? true : undefined), 2 * TAINT_BOUND.ms, TAINT_POLL_SECONDS * 1000);
        const took = Date.now() - changedAt;
        interposer = undefined;
        arrangeNext = false;
        await conflictsRecovered();
        return took;
      };
      while (cycles < CYCLES) {
        cycles += 1;
        taintTimes.push(await underFire('the agent to taint its node', () => removeDevice(node.host.root, 'kvm'), tainted));
        liftTimes.push(await underFire('the agent to lift its taint', () => restoreDevice(node.host.root, 'kvm'), async () => !(await tainted())));
      }
      await writer.stop();
      // Not a recovery for the ledger (each conflict timed its own): the state after the writer.
      await settle('the agent state to match the host', async () => publishedMismatches(admin, node, await truthOf(node)), 60_000);

      const current = await core.readNode({ name: NAME });
      expect(current.spec?.taints?.some((taint) => taint.key === keys.notReadyTaint)).toBe(false);
      const ownership = JSON.parse(current.metadata?.annotations?.[keys.ownershipAnnotation] ?? '{}') as { labels: string[]; taints: string[] };
      expect(ownership.taints).toEqual([]);
      expect(ownership.labels.every((key) => key.startsWith(`${keys.prefix}/`))).toBe(true);

      agentConflicts = agent409s(await cp.audit.since(mark));
      await settle('the agent\'s readiness to recover', () => unreadyAgent(agent, 'agent'), 60_000);
    } catch (error) {
      // What the agent decided meanwhile (publish failures, refusals, verdicts), so a failure here explains itself.
      const decisions = agent.logs.filter((line) => line.decision).slice(-25);
      const message = error instanceof Error ? error.message : String(error);
      failure = `failed: ${message}`;
      throw new Error(`${message}\nthe agent's last decisions: ${JSON.stringify(decisions)}`, { cause: error });
    } finally {
      interposer = undefined;
      // Each conflict's recovery timed (or timed out) before its row is written.
      await landing.catch(() => undefined);
      await Promise.all(conflicts.map((conflict) => conflict.recovery));
      // The census runs whether or not the test got this far: a fault that failed early (the
      // taint never came, the state never converged) still counts what it could have harmed. It
      // is one look after every conflict, so it goes on the last one's row (or, if none was
      // arranged, on a row that never recovered).
      const fault = conflicts.at(-1)?.fault ?? new Fault('conflict-409', 'no conflict was arranged');
      if (failure) fault.detail(failure);
      const outcome = await writer.stop();
      const writerLabels = Object.fromEntries(Object.entries(outcome.labels).filter(([key]) => !outcome.uncertain.has(key)));
      writerTaints = outcome.taints.filter((taint) => !outcome.uncertain.has(taint.key));
      counted = await census(admin, [
        { name: NAME, labels: { ...node.foreignLabels, ...writerLabels }, taints: [...node.foreignTaints, ...writerTaints], report: true },
      ]).catch((error: unknown) => {
        fault.detail(`census failed: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
      if (counted) fault.objects(counted.checked, counted.lost.length);
      const timings = `${cycles} taint cycles; taint applied in ${list(taintTimes)}, lifted in ${list(liftTimes)} (bound ${TAINT_BOUND.formula})`;
      fault.detail(`census and totals after all ${conflicts.length} conflicts; writer: ${outcome.writes} writes, ${outcome.conflicts} of its own 409s, ${writerTaints.length} taints, ${Object.keys(writerLabels).length} labels; agent: ${agentConflicts} 409s, ${interposedWrites} of them arranged (a write landed before ${interposedWrites} of its ${versionedPatches} versioned patches); ${timings}`);
      for (const conflict of conflicts) conflict.fault.finish();
      fault.finish();
    }
    expect(counted?.lost).toEqual([]);
    expect(pids && crashes(processes, pids)).toEqual([]);
    expect(writerTaints.length).toBeGreaterThan(0);
    // The agent does not starve under the writer: it taints and lifts within the bound, every time.
    expect(Math.max(...taintTimes), `time to taint; ${TAINT_BOUND.formula}`).toBeLessThanOrEqual(TAINT_BOUND.ms);
    expect(Math.max(...liftTimes), `time to lift the taint; ${TAINT_BOUND.formula}`).toBeLessThanOrEqual(TAINT_BOUND.ms);
    // The point of the test: the agent met conflicts, the real server's answer to a stale
    // resourceVersion, on every taint change, and still got it right.
    expect(interposedWrites, `writes landed before a held patch in ${cycles} taint cycles (${versionedPatches} versioned patches)`).toBe(2 * CYCLES);
    expect(agentConflicts, `agent 409s in the audit log, ${interposedWrites} arranged`).toBeGreaterThanOrEqual(interposedWrites);
  });
});
