import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, type V1Node } from '@kubernetes/client-node';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { requestOptions } from '../core/kube/request-options.ts';
import { freePort } from '../test/lab/controlplane/ports.ts';
import { seriesValue } from '../test/lab/processes/metrics-text.ts';
import { waitFor } from '../test/lab/support/wait.ts';
import { createNodeValidation } from '../test/lab/support/node-validations.ts';
import type { BenchCluster } from './cluster.ts';
import { median, p95, timeRuns } from './stats.ts';
import type { BenchRow } from './table.ts';
import { agentNodeValidation } from '../test/lab/reports/agent-report.ts';

const MiB = 1024 * 1024;
const CONCURRENCY = 24;

/**
 * The V8 settings the chart runs the aggregator with (values.yaml `aggregator.nodeOptions`). Node's
 * default young generation grows to 64 MiB semi-spaces (128 MiB) under the aggregator's allocation
 * rate; capped, the same work fits the 256 MiB budget at no measurable CPU cost.
 */
export const AGGREGATOR_NODE_OPTIONS = '--max-semi-space-size=8';

/** Runs `work` over `items` with at most CONCURRENCY in flight. */
async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

/** The report of a node whose agent found /dev/kvm (ready) or not, built as the agent builds it. */
function report(name: string, uid: string, ready: boolean, now: Date) {
  return agentNodeValidation(name, uid, { kvm: ready, kernelRelease: '5.14.0-503.el9.x86_64' }, now);
}

/** Creates nodes `from`..`to`-1 and their reports, as 5,000 agents would have left them. */
async function populate(cluster: BenchCluster, from: number, to: number): Promise<void> {
  const core = cluster.admin.makeApiClient(CoreV1Api);
  const custom = cluster.admin.makeApiClient(CustomObjectsApi);
  const names = Array.from({ length: to - from }, (_, i) => `scale-${String(from + i).padStart(5, '0')}`);
  const now = new Date();
  await inParallel(names, async (name) => {
    const resources = { cpu: '64', memory: '256Gi', pods: '110' };
    const node: V1Node = {
      metadata: { name, labels: { 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware', 'virtgate.io/cpu-vendor': 'intel', 'kubevirt.io/schedulable': 'true' } },
      status: {
        capacity: resources,
        allocatable: resources,
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'bench', lastHeartbeatTime: now, lastTransitionTime: now }],
        nodeInfo: {
          architecture: 'amd64', bootID: '', containerRuntimeVersion: 'containerd://2.0.5', kernelVersion: '5.14.0-503.el9.x86_64',
          kubeProxyVersion: '', kubeletVersion: 'v1.36.3', machineID: '', operatingSystem: 'linux', osImage: 'Rocky Linux 9.5', systemUUID: '',
        },
      },
    };
    const created = await core.createNode({ body: node });
    // Created, then its status written through /status, as an agent does.
    await createNodeValidation(custom, report(name, created.metadata?.uid ?? '', true, now));
  });
}

interface RunningAggregator {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** The compiled aggregator to measure; `VIRTGATE_BENCH_BASELINE_DIST` names another build (a `dist/` folder) to measure beside it. */
const OWN_DIST = path.join(PACKAGE_ROOT, 'dist');

async function startAggregator(cluster: BenchCluster, nodeOptions: string, dist = OWN_DIST): Promise<RunningAggregator & { syncMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [path.join(dist, 'cli/main.js'), 'aggregator', '--kubeconfig', cluster.plane.info.adminKubeconfig, '--port', String(port), '--bind-address', '127.0.0.1', '--log-level', 'warn'],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_OPTIONS: nodeOptions } },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor('the aggregator to sync', async () => ((await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined), 120_000, 20);
  const syncMs = performance.now() - started;
  return {
    child,
    url,
    syncMs,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

/** Flips one report and times how long until /metrics shows it; returns [latency ms, recompute ms]. */
async function changeToMetric(cluster: BenchCluster, url: string, name: string, ready: boolean): Promise<[number, number]> {
  const custom = cluster.admin.makeApiClient(CustomObjectsApi);
  const beforeText = await (await fetch(`${url}/metrics`)).text();
  const before = seriesValue(beforeText, 'virtgate_cluster_nodes', { state: 'not-ready' }) ?? 0;
  const recomputeSum = (text: string) => seriesValue(text, 'virtgate_aggregator_recompute_duration_seconds_sum') ?? Number.NaN;
  const recomputeCount = (text: string) => seriesValue(text, 'virtgate_aggregator_recompute_duration_seconds_count') ?? Number.NaN;
  const started = performance.now();
  await custom.patchClusterCustomObjectStatus(
    { group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations', name, body: { status: { ready, tier: ready ? 'hardware' : 'none' } } },
    requestOptions(30_000, PatchStrategy.MergePatch),
  );
  const expected = before + (ready ? -1 : 1);
  let recompute = Number.NaN;
  let last = '';
  await waitFor('the metric to change', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    // The mean of the recomputes since the flip (usually one), from the histogram's sum and count.
    recompute = ((recomputeSum(text) - recomputeSum(beforeText)) / (recomputeCount(text) - recomputeCount(beforeText))) * 1000;
    last = text
      .split('\n')
      .filter((line) => line.startsWith('virtgate_cluster_nodes'))
      .join(' | ');
    return seriesValue(text, 'virtgate_cluster_nodes', { state: 'not-ready' }) === expected ? true : undefined;
  }, 30_000, 5).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; expected not-ready ${expected}, last seen: ${last}`);
  });
  return [performance.now() - started, recompute];
}

interface Figures {
  syncMs: number;
  rss: number;
  /** [change → metric latency ms, recompute ms] per flip. */
  changes: Array<[number, number]>;
  gateLatency: number[];
  metricsLatency: number[];
}

/** One aggregator process: sync, 200 gate reads, 100 scrapes, 12 report flips, then its RSS. */
async function measure(cluster: BenchCluster, nodeOptions: string, dist = OWN_DIST): Promise<Figures> {
  const aggregator = await startAggregator(cluster, nodeOptions, dist);
  try {
    const gateLatency = await timeRuns(200, () => fetch(`${aggregator.url}/api/v1/gate`).then((r) => r.arrayBuffer()), 5);
    const metricsLatency = await timeRuns(100, () => fetch(`${aggregator.url}/metrics`).then((r) => r.arrayBuffer()), 5);
    const changes: Array<[number, number]> = [];
    // One report flipped to not ready and back, six times: it ends as it began.
    for (let i = 0; i < 12; i += 1) changes.push(await changeToMetric(cluster, aggregator.url, 'scale-00000', i % 2 === 1));
    const rss = await rssOf(aggregator.child.pid ?? 0);
    return { syncMs: aggregator.syncMs, rss, changes, gateLatency, metricsLatency };
  } finally {
    await aggregator.stop();
  }
}

/**
 * The compiled aggregator against 1,000 and 5,000 nodes in the real API server, run with
 * `nodeOptions` (the chart's V8 settings) and, for the memory and recompute rows' baseline, with
 * Node's defaults on the same objects.
 */
export async function aggregatorScaleBench(cluster: BenchCluster, nodeOptions: string, sizes: readonly number[] = [1000, 5000]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const settings = nodeOptions === '' ? 'Node defaults' : `NODE_OPTIONS=${nodeOptions}, as the chart runs it`;
  let populated = 0;
  for (const size of sizes) {
    const section = `aggregator, ${size.toLocaleString('en')} nodes`;
    const creating = performance.now();
    await populate(cluster, populated, size);
    process.stderr.write(`[bench] created ${size - populated} nodes + reports in ${((performance.now() - creating) / 1000).toFixed(0)} s\n`);
    populated = size;
    const run = await measure(cluster, nodeOptions);
    const defaults = nodeOptions === '' ? null : await measure(cluster, '');
    // Another build on the same objects in the same minutes: the "before" of a change.
    const baselineDist = process.env.VIRTGATE_BENCH_BASELINE_DIST;
    const before = baselineDist ? await measure(cluster, nodeOptions, baselineDist) : null;
    const recompute = (figures: Figures) => p95(figures.changes.map(([, r]) => r));
    rows.push(
      { section, figure: 'time to first full sync (process start → /readyz 200)', value: run.syncMs / 1000, unit: 's', target: { text: '≤ 10 s', met: (v) => v <= 10 } },
      { section, figure: `RSS after sync and 12 recomputes (${settings})`, value: run.rss / MiB, unit: 'MiB', target: { text: '≤ 256 MiB', met: (v) => v <= 256 } },
    );
    if (defaults) {
      rows.push({
        section,
        figure: 'RSS after sync and 12 recomputes, Node defaults',
        value: defaults.rss / MiB,
        unit: 'MiB',
        baseline: { label: 'chart settings', value: run.rss / MiB },
        ratio: 'value/baseline',
      });
    }
    rows.push({ section, figure: 'gate recompute, p95 of 12', value: recompute(run), unit: 'ms', target: { text: '≤ 50 ms', met: (v) => v <= 50 } });
    if (defaults) {
      rows.push({ section, figure: 'gate recompute, p95 of 12, Node defaults', value: recompute(defaults), unit: 'ms', baseline: { label: 'chart settings', value: recompute(run) }, ratio: 'value/baseline' });
    }
    rows.push(
      { section, figure: '/api/v1/gate latency, p95 of 200', value: p95(run.gateLatency), unit: 'ms', target: { text: '≤ 50 ms', met: (v) => v <= 50 } },
      { section, figure: '/metrics latency, p95 of 100', value: p95(run.metricsLatency), unit: 'ms', target: { text: '≤ 50 ms', met: (v) => v <= 50 } },
      { section, figure: 'NodeValidation change → updated metric, median of 12', value: median(run.changes.map(([l]) => l)), unit: 'ms', target: { text: '≤ 1 s', met: (v) => v <= 1000 } },
      { section, figure: 'NodeValidation change → updated metric, max of 12', value: Math.max(...run.changes.map(([l]) => l)), unit: 'ms', target: { text: '≤ 1 s', met: (v) => v <= 1000 } },
    );
    if (before) {
      const label = 'baseline build (VIRTGATE_BENCH_BASELINE_DIST)';
      rows.push(
        { section, figure: `RSS after sync and 12 recomputes, ${label}`, value: before.rss / MiB, unit: 'MiB', baseline: { label: 'this build', value: run.rss / MiB }, ratio: 'value/baseline' },
        { section, figure: `gate recompute, p95 of 12, ${label}`, value: recompute(before), unit: 'ms', baseline: { label: 'this build', value: recompute(run) }, ratio: 'value/baseline' },
        { section, figure: `/api/v1/gate latency, p95 of 200, ${label}`, value: p95(before.gateLatency), unit: 'ms', baseline: { label: 'this build', value: p95(run.gateLatency) }, ratio: 'value/baseline' },
        { section, figure: `/metrics latency, p95 of 100, ${label}`, value: p95(before.metricsLatency), unit: 'ms', baseline: { label: 'this build', value: p95(run.metricsLatency) }, ratio: 'value/baseline' },
      );
    }
  }
  return rows;
}
