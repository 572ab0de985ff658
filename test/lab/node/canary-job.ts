/**
 * One run of `virtgate canary` as the chart's CronJob runs it: a Job made from the CronJob's own
 * jobTemplate, as `kubectl create job --from=cronjob/<name>` makes it (owner reference, the
 * `cronjob.kubernetes.io/instantiate: manual` annotation), so the chart's pod spec, ServiceAccount
 * and RBAC are what runs. Two changes, both said here: `backoffLimit: 0` (one run per Job: the
 * tests count runs), and flags set on the canary's arguments (`--json` for a summary the test can
 * read; a shorter `--boot-timeout` where failure is expected).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BatchV1Api, CoreV1Api, V1CronJob, V1Job, V1Pod } from '@kubernetes/client-node';
import { waitFor } from '../support/wait.ts';

/** The run summary `virtgate canary --json` prints (the canary's contract, docs/canary.md). */
export interface CanarySummary {
  runId: string;
  startedAt: string;
  picked: Array<{ node: string; nodeClass: string }>;
  skipped: Array<{ node: string; reason: string }>;
  results: Array<{ node: string; nodeClass: string; vmi: string; status: string; reason: string; message: string; seconds: Record<string, number> }>;
}

export interface CanaryJobRun {
  job: string;
  pod: string;
  /** The canary container's exit code; undefined when its pod was deleted before it could be read. */
  exitCode?: number;
  /** Its log (stdout and stderr, as the kubelet keeps them). */
  log: string;
  summary?: CanarySummary;
  /** Job created → its pod's container terminated (or the pod gone), on this process's clock. */
  startedMs: number;
  endedMs: number;
  /** The pod's cgroup CPU time, last read while it ran (≤ 250 ms before its end). */
  cpuSeconds?: number;
}

export interface CanaryJobOptions {
  batch: BatchV1Api;
  core: CoreV1Api;
  /** The release's namespace, where the CronJob is. */
  namespace: string;
  /** A Job name unique in the namespace. */
  name: string;
  /** Canary flags to set (replacing the chart's value when it passes one): `{ '--boot-timeout': '5s' }`. */
  flags?: Record<string, string>;
  /** Called once with the pod while the canary runs (e.g. to delete it mid-run). */
  during?: (pod: V1Pod) => Promise<void>;
  timeoutMs?: number;
}

/** The chart's canary CronJob in `namespace` (the release's only CronJob named *-canary). */
export async function canaryCronJob(batch: BatchV1Api, namespace: string): Promise<V1CronJob> {
  const cronJobs = (await batch.listNamespacedCronJob({ namespace })).items.filter((c) => c.metadata?.name?.endsWith('-canary'));
  if (cronJobs.length !== 1) {
    throw new Error(`expected one canary CronJob in ${namespace} (canary.enabled=true), found ${cronJobs.map((c) => c.metadata?.name).join(', ') || 'none'}`);
  }
  return cronJobs[0]!;
}

/** `args` with each flag set to its value: `--flag=value` or `--flag value` replaced in place, else appended. */
export function withFlags(args: string[], flags: Record<string, string>): string[] {
  const out = [...args];
  for (const [flag, value] of Object.entries(flags)) {
    const joined = out.findIndex((arg) => arg.startsWith(`${flag}=`));
    const separate = out.indexOf(flag);
    // A boolean flag (value '') stands alone.
    if (joined >= 0) out[joined] = value === '' ? flag : `${flag}=${value}`;
    else if (separate >= 0 && value !== '') out[separate + 1] = value;
    else if (separate < 0) out.push(...(value === '' ? [flag] : [`${flag}=${value}`]));
  }
  return out;
}

/** The Job `kubectl create job --from=cronjob/...` would create, with the two changes above. */
export function jobFromCronJob(cronJob: V1CronJob, name: string, flags: Record<string, string>): V1Job {
  const template = structuredClone(cronJob.spec?.jobTemplate);
  const spec = template?.spec;
  const container = spec?.template.spec?.containers[0];
  if (!spec || !container) throw new Error(`CronJob ${cronJob.metadata?.name} has no job template with a container`);
  container.args = withFlags(container.args ?? [], flags);
  spec.backoffLimit = 0;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: cronJob.metadata?.namespace,
      labels: template?.metadata?.labels,
      annotations: { ...template?.metadata?.annotations, 'cronjob.kubernetes.io/instantiate': 'manual' },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cronJob.metadata?.name ?? '', uid: cronJob.metadata?.uid ?? '', controller: true }],
    },
    spec,
  };
}

/** The pod's CPU time from its cgroup (v1 cpuacct, or v2 cpu.stat), or undefined once it is gone. */
export async function podCpuSeconds(podUid: string): Promise<number | undefined> {
  const dirName = `pod${podUid}`;
  for (const root of ['/sys/fs/cgroup/cpuacct/kubepods', '/sys/fs/cgroup/cpu,cpuacct/kubepods', '/sys/fs/cgroup/kubepods']) {
    for (const qos of ['', 'besteffort', 'burstable']) {
      const dir = path.join(root, qos, dirName);
      const usage = await readFile(path.join(dir, 'cpuacct.usage'), 'utf8').catch(() => undefined);
      if (usage !== undefined) return Number(usage) / 1e9;
      const stat = await readFile(path.join(dir, 'cpu.stat'), 'utf8').catch(() => undefined);
      const micros = stat && /^usage_usec (\d+)$/m.exec(stat)?.[1];
      if (micros) return Number(micros) / 1e6;
    }
  }
  return undefined;
}

/** A line that is one whole log record of the canary's (pino's JSON: a number at `level`). */
function isLogRecord(line: string): boolean {
  if (!line.startsWith('{"')) return false;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as { level?: unknown }).level === 'number';
  } catch {
    return false;
  }
}

/**
 * The JSON document with a runId in a log that also holds log lines. The kubelet's log merges
 * stdout and stderr line by line as containerd copies each pipe, so a log record written to
 * stderr before the summary can land between the summary's own lines; log records are dropped
 * first.
 */
export function summaryIn(log: string): CanarySummary | undefined {
  const lines = log.split('\n').filter((line) => !isLogRecord(line));
  for (let start = 0; start < lines.length; start++) {
    if (!lines[start]!.trimStart().startsWith('{')) continue;
    for (let end = start; end < lines.length; end++) {
      try {
        const parsed = JSON.parse(lines.slice(start, end + 1).join('\n')) as Partial<CanarySummary>;
        if (parsed && typeof parsed.runId === 'string' && Array.isArray(parsed.results)) return parsed as CanarySummary;
        break;
      } catch {
        // Not yet a whole document: take one more line.
      }
    }
  }
  return undefined;
}

/** Runs the canary once as a Job and waits for its container to end. */
export async function runCanaryJob(options: CanaryJobOptions): Promise<CanaryJobRun> {
  const { batch, core, namespace, name } = options;
  const cronJob = await canaryCronJob(batch, namespace);
  const startedMs = Date.now();
  await batch.createNamespacedJob({ namespace, body: jobFromCronJob(cronJob, name, { '--json': '', ...options.flags }) });
  const timeoutMs = options.timeoutMs ?? 300_000;
  const pod = await waitFor(`the pod of Job ${name}`, async () => (await core.listNamespacedPod({ namespace, labelSelector: `job-name=${name}` })).items[0], 60_000, 200);
  const podName = pod.metadata?.name ?? '';
  const podUid = pod.metadata?.uid ?? '';
  let cpuSeconds: number | undefined;
  let during: Promise<void> | undefined;
  let exitCode: number | undefined;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`Job ${name}'s canary did not end within ${timeoutMs} ms`);
    cpuSeconds = (await podCpuSeconds(podUid)) ?? cpuSeconds;
    const current = await core.readNamespacedPod({ namespace, name: podName }).catch(() => undefined);
    if (!current) break;
    const state = current.status?.containerStatuses?.[0]?.state;
    if (state?.running && options.during && !during) during = options.during(current);
    if (state?.terminated) {
      exitCode = state.terminated.exitCode;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const endedMs = Date.now();
  await during;
  // A canary that ended on its own printed its summary (exit 0 or 1 alike); a read that fails or
  // lacks it is tried again for 5 s. A pod deleted under it has no log left to read.
  let log = '';
  const read = async () => {
    log = await core
      .readNamespacedPodLog({ namespace, name: podName })
      .then(String)
      .catch((error: Error) => `(the pod's log could not be read: ${error.message})`);
    return summaryIn(log);
  };
  const summary = exitCode === undefined ? await read() : await waitFor(`the summary in ${podName}'s log`, read, 5_000, 500).catch(() => undefined);
  return { job: name, pod: podName, exitCode, log, summary, startedMs, endedMs, cpuSeconds };
}
