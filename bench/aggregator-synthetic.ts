/**
 * The aggregator at 5,000, 20,000 and 100,000 nodes, in process: a real API server with 100,000
 * Nodes does not fit a 2-core machine, so synthetic Nodes and NodeValidations are fed to the
 * aggregator's own reflectors as decoded LIST pages and WATCH events (synthetic-cluster.ts), and
 * everything after that is the production code: narrowing, the recompute, the report bytes, the
 * metrics, and its real fastify server on loopback. Each size runs in a fresh process with the
 * chart's NODE_OPTIONS, so its RSS is its own. The 1,000 and 5,000 rows against the real API
 * server stay in aggregator-scale.ts.
 *
 * `node bench/aggregator-synthetic.ts` prints this section's table alone; `npm run bench --
 * aggregator` includes it.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { AGGREGATOR_DEFAULTS } from '../aggregator/config.ts';
import { migrationPlan } from '../aggregator/gate/migration.ts';
import { parseSnapshot } from '../aggregator/model/cluster.ts';
import { assessNodes } from '../aggregator/readiness/cluster-readiness.ts';
import { Aggregator } from '../aggregator/service/aggregator.ts';
import { loadVersionData } from '../aggregator/versions/load.ts';
import { AGGREGATOR_NODE_OPTIONS } from './aggregator-scale.ts';
import { startHttpReader } from './http-reader.ts';
import { p95, timeRuns } from './stats.ts';
import { syntheticCluster, syntheticNode, syntheticReport } from './synthetic-cluster.ts';
import { renderTable, type BenchRow } from './table.ts';

const MiB = 1024 * 1024;
const SIZES = [5_000, 20_000, 100_000] as const;
const RECOMPUTES = 20;
/** Flips before the measured ones: the first recomputes after the reads carry the JIT's and the reads' garbage (33–51 ms CPU at 5,000 nodes, then 14–28). */
const WARMUP_RECOMPUTES = 5;
const MIGRATION_RUNS = 10;

/** What one process measured at one size. */
interface Figures {
  size: number;
  perNodeMetrics: boolean;
  /** The reports carried the raw probe facts, as stored before status held declared fields only. */
  withFacts: boolean;
  syncMs: number;
  rssMiB: number;
  recomputeMs: number[];
  /** The process's CPU time from the WATCH event to the new report: the recompute without waiting for a core. */
  recomputeCpuMs: number[];
  gateMs: number[];
  /** The first /api/v1/gate read after each recompute: it serialises the new report. */
  firstGateMs: number[];
  healthzMs: number[];
  metricsMs: number[];
  metricsBytes: number;
  gateBytes: number;
  migrationMs: number[];
}

/** A loopback server that answers GET /version, the one call the aggregator makes through its kubeconfig here. */
async function versionServer(): Promise<{ kc: KubeConfig; close(): void }> {
  const body = JSON.stringify({ major: '1', minor: '36', gitVersion: 'v1.36.3', gitCommit: 'synthetic', gitTreeState: 'clean', buildDate: '2026-11-01T00:00:00Z', goVersion: 'go1.26', compiler: 'gc', platform: 'linux/amd64' });
  const server = http.createServer((request, response) => {
    response.writeHead(request.url === '/version' ? 200 : 404, { 'content-type': 'application/json' }).end(request.url === '/version' ? body : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'synthetic', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'synthetic' }],
    contexts: [{ name: 'synthetic', cluster: 'synthetic', user: 'synthetic' }],
    currentContext: 'synthetic',
  });
  return { kc, close: () => server.close() };
}

async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 10): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** One size, in this process: sync, reads through HTTP, recomputes from WATCH events, RSS, then the migration plan alone. */
async function measureHere(size: number, perNodeMetrics: boolean, withFacts: boolean): Promise<Figures> {
  const now = new Date();
  const version = await versionServer();
  const reader = startHttpReader();
  const cluster = syntheticCluster(size, now, withFacts);
  const config = { ...AGGREGATOR_DEFAULTS, port: 0, bindAddress: '127.0.0.1', perNodeMetrics };
  const aggregator = new Aggregator({ kc: version.kc, config, data: await loadVersionData(config.versionsFile), log: pino({ level: 'silent' }), clients: cluster.clients });
  try {
    const url = await aggregator.listen();
    const started = performance.now();
    aggregator.start();
    await waitUntil('the first full sync', async () => (await fetch(`${url}/readyz`)).status === 200, 600_000);
    const syncMs = performance.now() - started;
    const reads = size > 20_000 ? 40 : 100;
    // The reads come from a client process of its own (http-reader.ts), as Prometheus's or curl's would.
    const gate = await reader.time(`${url}/api/v1/gate`, reads);
    const healthz = await reader.time(`${url}/healthz`, reads);
    const metrics = await reader.time(`${url}/metrics`, reads);
    // One report flipped, as an agent would write it: each flip is one debounced recompute.
    const recomputeMs: number[] = [];
    const recomputeCpuMs: number[] = [];
    const firstGateMs: number[] = [];
    for (let i = 0; i < WARMUP_RECOMPUTES + RECOMPUTES; i += 1) {
      const before = aggregator.latest();
      const cpu = process.cpuUsage();
      cluster.writeReport(0, i % 2 === 1, new Date(now.getTime() + (i + 1) * 1000));
      await waitUntil('a recompute', () => aggregator.latest() !== before, 30_000, 5);
      const used = process.cpuUsage(cpu);
      const durationMs = aggregator.latest()?.durationMs ?? Number.NaN;
      // A read and a scrape between recomputes, as the page and Prometheus would.
      const firstGate = (await reader.time(`${url}/api/v1/gate`, 1, 0)).durations;
      if (i >= WARMUP_RECOMPUTES) {
        recomputeCpuMs.push((used.user + used.system) / 1000);
        recomputeMs.push(durationMs);
        firstGateMs.push(...firstGate);
      }
      await reader.time(`${url}/metrics`, 1, 0);
    }
    const rssMiB = process.memoryUsage.rss() / MiB;
    if (process.env.VIRTGATE_BENCH_DEBUG) process.stderr.write(`${JSON.stringify({ memory: process.memoryUsage(), cpu: process.cpuUsage() })}\n`);
    // The migration plan alone, on the same objects narrowed the same way (after the RSS was read).
    const model = parseSnapshot({
      serverGitVersion: 'v1.36.3',
      nodes: Array.from({ length: size }, (_, i) => syntheticNode(i, now)),
      nodeValidations: Array.from({ length: size }, (_, i) => syntheticReport(i, now)),
      kubevirt: { state: 'crd-absent' },
      cdi: { state: 'crd-absent' },
    });
    const assessed = assessNodes(model, config, now);
    const migrationMs = await timeRuns(MIGRATION_RUNS, async () => migrationPlan(assessed.nodes), 2);
    return {
      size, perNodeMetrics, withFacts, syncMs, rssMiB, recomputeMs, recomputeCpuMs, firstGateMs, migrationMs,
      gateMs: gate.durations, healthzMs: healthz.durations, metricsMs: metrics.durations, metricsBytes: metrics.bytes, gateBytes: gate.bytes,
    };
  } finally {
    reader.close();
    await aggregator.stop();
    version.close();
  }
}

/** Runs one size in a fresh process with the chart's V8 settings. */
function measureInChild(size: number, perNodeMetrics: boolean, withFacts = false): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', String(size), perNodeMetrics ? 'on' : 'off', withFacts ? 'facts' : 'declared'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: AGGREGATOR_NODE_OPTIONS },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the ${size}-node bench process exited with ${code}`));
      else resolve(JSON.parse(out) as Figures);
    });
  });
}

/** Least-squares slope of `y` over `x` (per 1,000 nodes), and r². */
function lineFit(points: ReadonlyArray<[number, number]>): { slope: number; intercept: number; r2: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const syy = points.reduce((s, [, y]) => s + (y - my) ** 2, 0);
  const slope = sxy / sxx;
  return { slope: slope * 1000, intercept: my - slope * mx, r2: syy === 0 ? 1 : (sxy * sxy) / (sxx * syy) };
}

const TARGETS_AT_100K = { rss: 2048, recompute: 500, api: 200 };

export async function aggregatorSyntheticBench(log: (text: string) => void, sizes: readonly number[] = SIZES): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const runs: Figures[] = [];
  for (const size of sizes) {
    log(`aggregator in process, ${size.toLocaleString('en')} synthetic nodes, per-node series on…`);
    runs.push(await measureInChild(size, true));
  }
  const withoutPerNode = new Map<number, Figures>();
  for (const size of [sizes[0], sizes.at(-1)].filter((s): s is number => s !== undefined)) {
    log(`aggregator in process, ${size.toLocaleString('en')} synthetic nodes, --no-per-node-metrics…`);
    withoutPerNode.set(size, await measureInChild(size, false));
  }
  // Before and after the report held declared fields only: the same cluster with the raw facts in every report.
  const largest = runs.at(-1);
  if (largest) {
    log(`aggregator in process, ${largest.size.toLocaleString('en')} synthetic nodes, reports with the raw facts (as stored before)…`);
    const withFacts = await measureInChild(largest.size, true, true);
    const section = `aggregator, ${largest.size.toLocaleString('en')} nodes (in process): reports without and with the raw facts`;
    rows.push(
      { section, figure: 'RSS, reports as stored now (declared fields only)', value: largest.rssMiB, unit: 'MiB', baseline: { label: 'with status.facts, as before', value: withFacts.rssMiB }, ratio: 'value/baseline' },
      { section, figure: 'time to first full sync, reports as stored now', value: largest.syncMs / 1000, unit: 's', baseline: { label: 'with status.facts', value: withFacts.syncMs / 1000 }, ratio: 'value/baseline' },
    );
  }
  for (const run of runs) {
    const section = `aggregator, ${run.size.toLocaleString('en')} nodes (in process)`;
    const large = run.size > 5_000;
    const off = withoutPerNode.get(run.size);
    const reads = run.gateMs.length;
    rows.push(
      { section, figure: 'time to first full sync (start → /readyz 200; LIST pages decoded in process)', value: run.syncMs / 1000, unit: 's', target: { text: large ? '≤ 60 s' : '≤ 10 s', met: (v) => v <= (large ? 60 : 10) } },
      { section, figure: `RSS after sync, reads and ${WARMUP_RECOMPUTES + RECOMPUTES} recomputes (NODE_OPTIONS=${AGGREGATOR_NODE_OPTIONS})`, value: run.rssMiB, unit: 'MiB', target: { text: '≤ 2 GiB', met: (v) => v <= TARGETS_AT_100K.rss } },
      { section, figure: `gate recompute, p95 of ${RECOMPUTES} (after ${WARMUP_RECOMPUTES} unmeasured)`, value: p95(run.recomputeMs), unit: 'ms', target: large ? { text: '≤ 500 ms', met: (v) => v <= TARGETS_AT_100K.recompute } : { text: '≤ 50 ms', met: (v) => v <= 50 }, baseline: { label: 'migration plan alone, p95', value: p95(run.migrationMs) }, ratio: 'value/baseline' },
      { section, figure: `CPU time from the WATCH event to the new report, p95 of ${RECOMPUTES} after ${WARMUP_RECOMPUTES} unmeasured (all threads, GC included)`, value: p95(run.recomputeCpuMs), unit: 'ms', target: large ? { text: '≤ 500 ms', met: (v) => v <= TARGETS_AT_100K.recompute } : { text: '≤ 50 ms', met: (v) => v <= 50 }, baseline: { label: 'wall p95', value: p95(run.recomputeMs) }, ratio: 'value/baseline' },
      { section, figure: `/api/v1/gate latency, p95 of ${reads} (${(run.gateBytes / MiB).toFixed(1)} MiB; client in its own process)`, value: p95(run.gateMs), unit: 'ms', target: large ? { text: '≤ 200 ms', met: (v) => v <= TARGETS_AT_100K.api } : { text: '≤ 50 ms', met: (v) => v <= 50 }, baseline: { label: '/healthz p95, same server', value: p95(run.healthzMs) }, ratio: 'value/baseline' },
      // No target: the one read per report that serialises it (bytes kept until the next recompute).
      { section, figure: `first /api/v1/gate read after a recompute (serialises the new report), p95 of ${RECOMPUTES} (after ${WARMUP_RECOMPUTES} unmeasured)`, value: p95(run.firstGateMs), unit: 'ms', baseline: { label: 'later reads p95', value: p95(run.gateMs) }, ratio: 'value/baseline' },
      {
        section,
        figure: `/metrics latency, p95 of ${reads}, per-node series on (${(run.metricsBytes / 1024).toFixed(0)} KiB)`,
        value: p95(run.metricsMs),
        unit: 'ms',
        target: large ? { text: '≤ 200 ms', met: (v) => v <= TARGETS_AT_100K.api } : { text: '≤ 50 ms', met: (v) => v <= 50 },
        ...(off ? { baseline: { label: 'per-node series off', value: p95(off.metricsMs) }, ratio: 'value/baseline' as const } : {}),
      },
      { section, figure: `migration targets (migrationPlan alone, 8 CPU kinds × 2 kernels), p95 of ${MIGRATION_RUNS}`, value: p95(run.migrationMs), unit: 'ms', target: large ? { text: '≤ 250 ms', met: (v) => v <= 250 } : { text: '≤ 25 ms', met: (v) => v <= 25 }, baseline: { label: 'whole recompute p95', value: p95(run.recomputeMs) }, ratio: 'value/baseline' },
    );
    if (off) {
      rows.push({ section, figure: '/metrics size, per-node series on', value: run.metricsBytes / 1024, unit: 'KiB', baseline: { label: 'off', value: off.metricsBytes / 1024 }, ratio: 'value/baseline' });
    }
  }
  if (runs.length >= 2) {
    const section = `aggregator growth, ${runs.map((run) => `${run.size / 1000}k`).join('/')} nodes (line fit)`;
    const fit = (figure: string, unit: string, y: (run: Figures) => number) => {
      const { slope, intercept, r2 } = lineFit(runs.map((run) => [run.size, y(run)]));
      rows.push({ section, figure: `${figure} per 1,000 nodes (r² ${r2.toFixed(3)}, intercept ${intercept.toFixed(1)} ${unit})`, value: slope, unit, baseline: { label: 'value at the smallest size', value: y(runs[0] as Figures) }, ratio: 'value/baseline' });
    };
    fit('RSS', 'MiB', (run) => run.rssMiB);
    fit('time to first full sync', 's', (run) => run.syncMs / 1000);
    fit('recompute p95', 'ms', (run) => p95(run.recomputeMs));
    fit('/api/v1/gate p95', 'ms', (run) => p95(run.gateMs));
    fit('/metrics p95', 'ms', (run) => p95(run.metricsMs));
    fit('migration plan p95', 'ms', (run) => p95(run.migrationMs));
  }
  return rows;
}

if (process.argv[2] === '--child') {
  const figures = await measureHere(Number(process.argv[3]), process.argv[4] !== 'off', process.argv[5] === 'facts');
  process.stdout.write(JSON.stringify(figures));
  process.exit(0);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const rows = await aggregatorSyntheticBench((text) => process.stderr.write(`[bench] ${text}\n`), sizes.length > 0 ? sizes : SIZES);
  process.stdout.write(`${renderTable(rows)}\n`);
}
