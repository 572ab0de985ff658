/**
 * `npm run bench`: what virtgate costs its users, measured against the real parts in one run,
 * printed as one table with targets and same-run baselines. Never part of `npm test`.
 */
import os from 'node:os';
import { agentFootprintBench } from './agent-footprint.ts';
import { AGGREGATOR_NODE_OPTIONS, aggregatorScaleBench } from './aggregator-scale.ts';
import { aggregatorSyntheticBench } from './aggregator-synthetic.ts';
import { apiLoadBench } from './api-load.ts';
import { checkStartupBench } from './check-startup.ts';
import { imageSizeBench } from './image-size.ts';
import { kvmRunBench } from './kvm-run.ts';
import { cycleCostsBench } from './cycle-costs.ts';
import { explainBench } from './explain.ts';
import { startBenchCluster } from './cluster.ts';
import { inventoryBench } from './inventory.ts';
import { probeCycleBench } from './probe-cycle.ts';
import { realNodeBench } from './real-node.ts';
import { reportSizeBench } from './report-size.ts';
import { renderTable, type BenchRow } from './table.ts';

// Sections by name (`npm run bench -- agent node`); `--real-node` is another name for `node`.
const only = new Set(process.argv.slice(2).map((arg) => (arg === '--real-node' ? 'node' : arg)));
const wanted = (name: string) => only.size === 0 || only.has(name);
const rows: BenchRow[] = [];
const log = (text: string) => process.stderr.write(`[bench] ${text}\n`);

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
log(`machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, node ${process.version}`);

if (wanted('probe')) {
  log('probe cycle and whole command…');
  rows.push(...(await probeCycleBench()));
}
if (wanted('probe') || wanted('startup')) {
  log('check start-up: virtgate check --no-vhv --json against node -e 0, paired…');
  rows.push(...(await checkStartupBench()));
}
if (wanted('report')) {
  log('report size: the stored status per node, with and without raw facts…');
  rows.push(...(await reportSizeBench(log)));
}
if (wanted('inventory')) {
  log('inventory: once at agent start, in 10 fresh processes…');
  rows.push(...(await inventoryBench()));
}

if (wanted('probe') || wanted('kvm')) {
  log('kvm.run: the tiny guest…');
  rows.push(...(await kvmRunBench()));
}
if (wanted('probe') || wanted('kvm') || wanted('inventory') || wanted('cycle')) {
  log('per probe cycle: the inventory and kvm.run (CPU, children, RSS)…');
  rows.push(...(await cycleCostsBench()));
}
if (wanted('agent') || wanted('load') || wanted('aggregator') || wanted('aggregator-api')) {
  log('starting the control plane…');
  const cluster = await startBenchCluster();
  try {
    if (wanted('agent')) {
      log('agent footprint (1,000 cycles)…');
      rows.push(...(await agentFootprintBench(cluster)));
    }
    if (wanted('load')) {
      log('API load (about 2 minutes)…');
      rows.push(...(await apiLoadBench(cluster)));
    }
    // `aggregator-api` runs these rows alone, without the in-process sizes below.
    if (wanted('aggregator') || wanted('aggregator-api')) {
      log('aggregator at 1,000 and 5,000 nodes (creates the objects in the API server first)…');
      rows.push(...(await aggregatorScaleBench(cluster, AGGREGATOR_NODE_OPTIONS)));
    }
  } finally {
    await cluster.stop();
  }
}

// In process, no API server: 5,000, 20,000 and 100,000 synthetic nodes (`scale` runs it alone).
if (wanted('aggregator') || wanted('scale')) {
  log('aggregator at 5,000, 20,000 and 100,000 synthetic nodes, in process (about 10 minutes)…');
  rows.push(...(await aggregatorSyntheticBench(log)));
}

if (wanted('explain')) {
  log('explain: one answer over 5,000 nodes, in process…');
  rows.push(...explainBench());
}

// Last, alone: it starts its own control plane, containerd and kubelet (root only; fixed names
// under /tmp/virtgate-node, so never beside `npm run test:node`).
if (wanted('node')) {
  if (process.getuid?.() === 0 || only.has('node')) {
    log('real node: images, the node, the chart (a few minutes; the images are built once per source change)…');
    rows.push(...(await realNodeBench(log)));
  } else {
    log('real node: SKIPPED, it needs root (run `npm run bench -- node` as root)');
  }
}

// The images' sizes, from the archives scripts/images.sh saved for these sources (the real node
// above builds them; `npm run bench -- images` alone needs them built).
if (wanted('images') || wanted('node')) {
  log('images: the docker-archives against the Node binary alone…');
  try {
    rows.push(...(await imageSizeBench()));
  } catch (error) {
    if (only.has('images')) throw error;
    log(`images: SKIPPED, ${error instanceof Error ? error.message : String(error)}`);
  }
}

process.stdout.write(`\nvirtgate benchmarks: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, node ${process.version}\n\n`);
process.stdout.write(`${renderTable(rows)}\n`);
const misses = rows.filter((row) => row.target && !row.target.met(row.value));
process.stdout.write(misses.length ? `\n${misses.length} figure(s) MISS their target.\n` : '\nEvery figure meets its target.\n');
