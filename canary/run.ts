import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { apiFailure } from '../core/kube/api-error.ts';
import type { NodeKeys } from '../core/kube/names.ts';
import { consoleShowsNonce } from './guest/marker.ts';
import type { CanaryApi } from './canary-api.ts';
import { isLauncherRunning, isScheduled, isVmiRunning, type Outcome, outcomeOf } from './outcome.ts';
import { type PickedNode, pickNodes, type Skipped, STALE_AFTER_SECONDS } from './pick.ts';
import { reportView, type ReportView } from './report-view.ts';
import { RunObserver } from './observe.ts';
import { nextVmBoot, type StepSeconds, vmBootPatch } from './vm-boot.ts';
import { CANARY_APP, CANARY_APP_LABEL, CREATED_BY_LABEL, canaryVmi, RUN_LABEL, vmiName } from './vmi.ts';

/**
 * One canary run (I/O): sweep what earlier runs left, pick the nodes, create one VMI per picked
 * node, follow each to its result, publish each result on its node's report, and delete every VMI
 * of the run, always. The CronJob's schedule is the loop.
 */

export interface RunOptions {
  namespace: string;
  diskImage: string;
  diskPullPolicy: string;
  maxVmis: number;
  bootTimeoutSeconds: number;
  keys: NodeKeys;
  dryRun: boolean;
  canaryVersion: string;
  /** Aborted by SIGTERM or SIGINT: stop following, publish nothing more, delete the run's VMIs. */
  signal: AbortSignal;
  log: Logger;
}

export interface NodeResult {
  node: string;
  nodeClass: string;
  vmi: string;
  status: 'True' | 'False';
  reason: Outcome['reason'];
  message: string;
  seconds: StepSeconds;
}

export interface CanaryRun {
  runId: string;
  startedAt: string;
  picked: { node: string; nodeClass: string }[];
  skipped: Skipped[];
  results: NodeResult[];
  /** A signal cut the run short: the VMIs it was still following were deleted and nothing was published for them. */
  interrupted: boolean;
  /** Results that could not be published (each node's error). */
  unpublished: { node: string; error: string }[];
  /** What the run cost: this process's CPU seconds so far, and the seconds each VMI lived (creation to the run's delete), summed. */
  cost: { cpuSeconds: number; vmSeconds: number };
}

/** The API or KubeVirt could not be reached or read: nothing more was published. */
export class CanaryUnreachableError extends Error {}

/**
 * The API server refused the canary's VMI (403: RBAC or the chart's canary VMI policy; 422: KubeVirt
 * found it invalid): a setting to fix, not a failure to retry. Nothing was published.
 */
export class CanaryRefusedError extends Error {}

/** How often the run looks at each VMI (and polls its console once the launcher runs). */
const TICK_MS = 500;
/** How long the run waits for deleted VMIs and their launcher pods to be gone. */
export const CLEANUP_BOUND_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Short, sortable by time, unique enough for one namespace: `m1abc2de-3f4a`. */
export function newRunId(now: Date): string {
  return `${now.getTime().toString(36)}-${randomBytes(2).toString('hex')}`;
}

interface Follow {
  picked: PickedNode;
  name: string;
  uuid: string;
  createdAt: number;
  seconds: StepSeconds;
  console: string;
  lastConsoleAt: number;
  done: boolean;
  /** The VMI's uid once seen: its launcher pod carries it. */
  uid?: string;
  /** When the run asked for the VMI's deletion (ms). */
  deletedAt?: number;
}

const seconds = (from: number, to: number) => Math.round((to - from) / 10) / 100;

export async function runCanary(api: CanaryApi, options: RunOptions, now: () => Date = () => new Date()): Promise<CanaryRun> {
  const { log } = options;
  const started = now();
  const runId = newRunId(started);
  const [nodes, rawReports] = await Promise.all([api.listNodes(), api.listReports()]);
  const reports = rawReports.map(reportView).filter((report): report is ReportView => report !== undefined);
  // Also the proof that KubeVirt's API is served, before anything is picked or created.
  const leftovers = await api.listVmis(`${CANARY_APP_LABEL}=${CANARY_APP}`);
  const picks = pickNodes(nodes, reports, { maxVmis: options.maxVmis, staleAfterSeconds: STALE_AFTER_SECONDS, now: started });
  const run: CanaryRun = {
    runId,
    startedAt: started.toISOString(),
    picked: picks.picked.map(({ node, nodeClass }) => ({ node, nodeClass })),
    skipped: picks.skipped,
    results: [],
    interrupted: false,
    unpublished: [],
    cost: { cpuSeconds: 0, vmSeconds: 0 },
  };
  log.info({ runId, picked: run.picked, skipped: run.skipped.length, leftovers: leftovers.items.length }, 'picked');
  if (options.dryRun || picks.picked.length === 0) return withCost(run, []);

  const leftoverNames = leftovers.items.map((item) => (item as { metadata?: { name?: string } }).metadata?.name).filter((name): name is string => name !== undefined);
  if (leftoverNames.length > 0) {
    log.info({ vmis: leftoverNames }, 'deleting VMIs earlier runs left');
    await deleteAndWait(api, leftoverNames, `${CANARY_APP_LABEL}=${CANARY_APP}`, log);
  }
  if (options.signal.aborted) return withCost({ ...run, interrupted: true }, []);

  const observer = new RunObserver(api, runId, log);
  const follows: Follow[] = [];
  try {
    observer.start();
    for (const picked of picks.picked) {
      const uuid = randomUUID();
      const body = canaryVmi(picked, { runId, namespace: options.namespace, diskImage: options.diskImage, diskPullPolicy: options.diskPullPolicy, firmwareUuid: uuid, keys: options.keys });
      const createdAt = Date.now();
      try {
        await api.createVmi(body);
      } catch (error) {
        const failure = apiFailure(error);
        const what = `cannot create the canary VMI for node ${picked.node}: ${failure.status ? `HTTP ${failure.status}: ` : ''}${failure.message}`;
        if (failure.status === 403 || failure.status === 422) {
          throw new CanaryRefusedError(
            `${what}. The chart lets the canary create only the VMI its values describe (its canary VMI admission policy, docs/security.md): run it with the flags its CronJob renders, or change the chart's canary values and run helm upgrade`,
          );
        }
        // KubeVirt's admission webhook unreachable, or the API: no VM was tried, so nothing is published.
        throw new CanaryUnreachableError(what);
      }
      follows.push({ picked, name: vmiName(picked.node, runId), uuid, createdAt, seconds: {}, console: '', lastConsoleAt: 0, done: false });
      log.info({ node: picked.node, nodeClass: picked.nodeClass, vmi: vmiName(picked.node, runId) }, 'created');
    }

    while (follows.some((follow) => !follow.done) && !options.signal.aborted) {
      await sleep(TICK_MS);
      for (const follow of follows.filter((each) => !each.done)) {
        if (options.signal.aborted) break;
        const outcome = await look(api, observer, follow, options.bootTimeoutSeconds);
        if (outcome === undefined) continue;
        follow.done = true;
        if (!observer.healthy) {
          throw new CanaryUnreachableError(`cannot read the canary's VMIs and pods: ${observer.error}`);
        }
        const status = outcome.reason === 'Booted' ? 'True' : 'False';
        const result: NodeResult = { node: follow.picked.node, nodeClass: follow.picked.nodeClass, vmi: follow.name, status, ...outcome, seconds: follow.seconds };
        run.results.push(result);
        log.info(result, 'result');
        // The VM has told what it can: free the node before publishing.
        follow.deletedAt = Date.now();
        await api.deleteVmi(follow.name).catch((error: unknown) => log.warn({ vmi: follow.name, error: apiFailure(error).message }, 'cannot delete the VMI yet; the cleanup tries again'));
        const vmBoot = nextVmBoot({ picked: follow.picked, outcome, seconds: follow.seconds, runAt: new Date(follow.createdAt), now: now(), canaryVersion: options.canaryVersion });
        try {
          await api.publishVmBoot(follow.picked.node, vmBootPatch(vmBoot));
        } catch (error) {
          const failure = apiFailure(error);
          // The node and its report were deleted mid-run: there is nowhere to publish, and nothing wrong with the API.
          if (failure.status === 404) {
            log.warn({ node: follow.picked.node }, 'the report is gone; the result is not published');
            continue;
          }
          run.unpublished.push({ node: follow.picked.node, error: `${failure.status ? `HTTP ${failure.status}: ` : ''}${failure.message}` });
          log.error({ node: follow.picked.node, error: failure.message }, 'cannot publish the result');
        }
      }
    }
    run.interrupted = options.signal.aborted && follows.some((follow) => !follow.done);
  } finally {
    observer.stop();
    const names = follows.map((follow) => follow.name);
    const uids = follows.map((follow) => follow.uid).filter((uid): uid is string => uid !== undefined);
    const deletedAt = Date.now();
    for (const follow of follows) follow.deletedAt ??= deletedAt;
    if (names.length > 0) await deleteAndWait(api, names, `${RUN_LABEL}=${runId}`, log, uids);
  }
  const finished = withCost(run, follows);
  log.info({ runId, results: finished.results.length, interrupted: finished.interrupted, cost: finished.cost }, 'done');
  return finished;
}

/** CPU seconds of the whole process (Node's start and module loading included: what the Job's pod costs). */
function withCost(run: CanaryRun, follows: readonly Follow[]): CanaryRun {
  const cpu = process.cpuUsage();
  const vmSeconds = follows.reduce((sum, follow) => sum + ((follow.deletedAt ?? Date.now()) - follow.createdAt) / 1000, 0);
  return { ...run, cost: { cpuSeconds: Math.round((cpu.user + cpu.system) / 10_000) / 100, vmSeconds: Math.round(vmSeconds * 10) / 10 } };
}

/** Records the steps reached, reads the console once the launcher runs, and judges. */
async function look(api: CanaryApi, observer: RunObserver, follow: Follow, boundSeconds: number): Promise<Outcome | undefined> {
  const at = Date.now();
  const vmi = observer.vmi(follow.name);
  follow.uid ??= vmi?.uid;
  const pod = observer.launcherPod(vmi?.uid);
  const step = (key: keyof StepSeconds, reached: boolean) => {
    if (reached && follow.seconds[key] === undefined) follow.seconds[key] = seconds(follow.createdAt, at);
  };
  step('scheduled', isScheduled(pod));
  step('launcherRunning', isLauncherRunning(pod));
  step('vmiRunning', isVmiRunning(vmi));
  let markerSeen = false;
  const podName = pod?.metadata?.name;
  if (podName !== undefined && (isLauncherRunning(pod) || isVmiRunning(vmi)) && at - follow.lastConsoleAt >= TICK_MS) {
    follow.lastConsoleAt = at;
    follow.console = await api.readConsole(podName).catch(() => follow.console);
    markerSeen = consoleShowsNonce(follow.console, follow.uuid);
    step('guestMarker', markerSeen);
    // No vmiRunning from the marker: the VMI watch can trail the console, and a step this run did
    // not see stays absent (docs/canary.md) rather than filled in with another step's time.
  }
  const timedOut = at - follow.createdAt >= boundSeconds * 1000;
  return outcomeOf({ vmi, vmiGone: observer.vmiGone(follow.name), pod, console: follow.console, markerSeen }, timedOut, boundSeconds);
}

/**
 * Deletes the VMIs, then waits until no VMI of `selector` and none of their launcher pods are
 * left, up to CLEANUP_BOUND_MS. A VMI KubeVirt is slow to finalize is said, not waited for forever.
 */
async function deleteAndWait(api: CanaryApi, names: readonly string[], selector: string, log: Logger, knownUids: readonly string[] = []): Promise<void> {
  const deadline = Date.now() + CLEANUP_BOUND_MS;
  let pending = [...names];
  const uids = new Set<string>(knownUids);
  for (;;) {
    try {
      const vmis = await api.listVmis(selector);
      for (const item of vmis.items) {
        const uid = (item as { metadata?: { uid?: string } }).metadata?.uid;
        if (uid !== undefined) uids.add(uid);
      }
      const items = vmis.items as { metadata?: { name?: string; deletionTimestamp?: unknown } }[];
      const left = items.map((item) => item.metadata?.name).filter((name): name is string => name !== undefined);
      // Each is deleted once; a VMI KubeVirt is still finalizing carries a deletionTimestamp.
      const undeleted = items.filter((item) => !item.metadata?.deletionTimestamp).map((item) => item.metadata?.name);
      for (const name of new Set([...undeleted, ...pending])) if (name !== undefined) await api.deleteVmi(name);
      pending = [];
      const pods = (await api.listPods(CREATED_BY_LABEL)).items.filter((pod) => uids.has(pod.metadata?.labels?.[CREATED_BY_LABEL] ?? ''));
      if (left.length === 0 && pods.length === 0) return;
      if (Date.now() >= deadline) {
        log.warn({ vmis: left, pods: pods.map((pod) => pod.metadata?.name) }, `still there ${CLEANUP_BOUND_MS / 1000} s after deletion`);
        return;
      }
    } catch (error) {
      if (Date.now() >= deadline) {
        log.error({ error: apiFailure(error).message }, 'cannot make sure the canary VMIs are gone');
        return;
      }
    }
    await sleep(TICK_MS);
  }
}
