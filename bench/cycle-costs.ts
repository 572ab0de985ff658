import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { AGENT_NODE_OPTIONS } from './agent-footprint.ts';
import type { BenchRow } from './table.ts';

const run = promisify(execFile);
const RUNS = 20;

interface Cost {
  /** The measuring process's own CPU per run (user + sys), median. */
  ownCpuMs: number;
  /** Its children's CPU per run: the kernel's count of reaped children (cutime + cstime) over all runs, divided by the runs. */
  childCpuMs: number;
  childrenPerRun: number;
  /** RSS after GC, after the runs less before them. */
  rssGrowthMiB: number;
  rssAfterMiB: number;
}

interface Sample {
  inventory: Cost & { collected: boolean };
  cycleWithoutKvmRun: Cost;
  cycleWithKvmRun: Cost & { outcome: string };
}

/**
 * Runs in a fresh process from the build (dist/), with the chart's V8 settings: the agent's
 * inventory collection and its probe cycle with and without kvm.run, RUNS times each after 3
 * unmeasured runs. Child processes are counted where every asynchronous start goes through
 * (ChildProcess's spawn), as test/lab/support/spawn-recorder.ts does; the recorder itself is
 * TypeScript, which --jitless (no WebAssembly) cannot strip.
 */
const SCRIPT = `
const { readFileSync } = await import('node:fs');
const { ChildProcess } = await import('node:child_process');
let started = 0;
const spawn = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function counted(options) { started += 1; return spawn.call(this, options); };
const { collectInventory } = await import(${JSON.stringify(path.join(PACKAGE_ROOT, 'dist/core/inventory/collect.js'))});
const { probeHost } = await import(${JSON.stringify(path.join(PACKAGE_ROOT, 'dist/core/checks/probe-host.js'))});
// /proc/self/stat fields 16 and 17 (cutime, cstime), in clock ticks of 10 ms (USER_HZ is 100 on Linux).
const childCpuMs = () => { const text = readFileSync('/proc/self/stat', 'utf8'); const fields = text.slice(text.lastIndexOf(')') + 2).split(' '); return (Number(fields[13]) + Number(fields[14])) * 10; };
const spawns = () => started;
const rss = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().rss / 2 ** 20; };
const median = (values) => [...values].sort((a, b) => a - b)[Math.ceil(values.length / 2) - 1];
async function cost(fn) {
  let last;
  for (let i = 0; i < 3; i += 1) last = await fn();
  const rssBefore = rss();
  const spawnsBefore = spawns();
  const childBefore = childCpuMs();
  const own = [];
  for (let i = 0; i < ${RUNS}; i += 1) {
    const before = process.cpuUsage();
    last = await fn();
    const used = process.cpuUsage(before);
    own.push((used.user + used.system) / 1000);
  }
  const rssAfter = rss();
  return { last, cost: { ownCpuMs: median(own), childCpuMs: (childCpuMs() - childBefore) / ${RUNS}, childrenPerRun: (spawns() - spawnsBefore) / ${RUNS}, rssGrowthMiB: rssAfter - rssBefore, rssAfterMiB: rssAfter } };
}
const inventory = await cost(() => collectInventory());
const without = await cost(() => probeHost('/', { enabled: false }));
const withRun = await cost(() => probeHost('/', { enabled: true }));
process.stdout.write(JSON.stringify({
  inventory: { ...inventory.cost, collected: inventory.last.collected },
  cycleWithoutKvmRun: without.cost,
  cycleWithKvmRun: { ...withRun.cost, outcome: withRun.last.kvmRun.state === 'ran' ? withRun.last.kvmRun.outcome : withRun.last.kvmRun.state },
}));
`;

async function kvmOpens(): Promise<boolean> {
  try {
    await (await open('/dev/kvm', 'r+')).close();
    return true;
  } catch {
    return false;
  }
}

/**
 * What the agent's inventory and kvm.run cost each time they run, on this machine: CPU of the
 * agent's process and of the children it starts, how many children, and the RSS the agent keeps.
 * kvm.run's rows need a /dev/kvm that opens (its child starts only then): elsewhere they print,
 * saying "not measurable here".
 */
export async function cycleCostsBench(): Promise<BenchRow[]> {
  for (const file of ['dist/core/inventory/collect.js', 'dist/core/checks/probe-host.js']) {
    if (!existsSync(path.join(PACKAGE_ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` before \`npm run bench\``);
  }
  // NODE_OPTIONS, as the chart sets it: the guest child inherits the settings, as in the pod.
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', SCRIPT], { env: { ...process.env, NODE_OPTIONS: AGENT_NODE_OPTIONS }, maxBuffer: 1024 * 1024 });
  const sample = JSON.parse(stdout) as Sample;
  if (!sample.inventory.collected) throw new Error('cycle costs bench: the inventory was not collected on this machine');
  const opens = await kvmOpens();
  const { inventory, cycleWithoutKvmRun: without, cycleWithKvmRun: withRun } = sample;
  const section = 'per probe cycle (chart V8 settings)';
  const noChild = { text: '0 (cpuinfo names the CPU)', met: (count: number) => count === 0 };
  const rows: BenchRow[] = [
    { section, figure: `inventory, one collection: agent CPU, median of ${RUNS}`, value: inventory.ownCpuMs, unit: 'ms' },
    { section, figure: 'inventory, one collection: children CPU', value: inventory.childCpuMs, unit: 'ms' },
    { section, figure: 'inventory, one collection: child processes', value: inventory.childrenPerRun, unit: '', ...(process.arch === 'x64' ? { target: noChild } : {}) },
    { section, figure: `inventory: agent RSS after GC, growth over ${RUNS} collections`, value: inventory.rssGrowthMiB, unit: 'MiB' },
    { section, figure: `probe cycle without kvm.run: agent CPU, median of ${RUNS}`, value: without.ownCpuMs, unit: 'ms' },
  ];
  const notHere = ' (not measurable here: /dev/kvm does not open, so no guest runs)';
  const kvm = (figure: string, value: number, unit: string, extra: Partial<BenchRow> = {}): BenchRow =>
    opens ? { section, figure, value, unit, ...extra } : { section, figure: `${figure}${notHere}`, value: Number.NaN, unit };
  rows.push(
    kvm(`probe cycle with kvm.run (outcome: ${withRun.outcome}): agent CPU, median of ${RUNS}`, withRun.ownCpuMs, 'ms', { baseline: { label: 'without kvm.run', value: without.ownCpuMs }, ratio: 'value/baseline' }),
    kvm('kvm.run: guest child CPU per cycle', withRun.childCpuMs, 'ms'),
    kvm('kvm.run: child processes per cycle', withRun.childrenPerRun, '', { target: { text: '1 (the guest runner)', met: (count) => count === 1 } }),
    kvm(`kvm.run: agent RSS after GC, growth over ${RUNS} cycles`, withRun.rssGrowthMiB, 'MiB', { target: { text: '≤ 2 MiB', met: (v) => v <= 2 } }),
    kvm('agent RSS after GC, after the cycles with kvm.run', withRun.rssAfterMiB, 'MiB'),
  );
  return rows;
}
