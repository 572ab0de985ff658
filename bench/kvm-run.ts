import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { AGENT_NODE_OPTIONS } from './agent-footprint.ts';
import { median, p95 } from './stats.ts';
import type { BenchRow } from './table.ts';

const run = promisify(execFile);

interface Sample {
  outcome: string;
  durations: number[];
  rssBefore: number;
  rssAfter: number;
  childPeakKiB: number[];
}

const RUNS = 30;

/**
 * Runs the compiled runner as the agent would (dist, the chart's V8 settings) in a fresh process:
 * 3 warm-up runs, then RUNS timed ones, with RSS after GC before and after, and each child's own
 * peak RSS from its summary line.
 */
const SCRIPT = (runner: string) => `
const { runGuest } = await import(${JSON.stringify(runner)});
const { execFile } = await import('node:child_process');
const first = await runGuest({ devicePath: '/dev/kvm' });
for (let i = 0; i < 2; i += 1) await runGuest({ devicePath: '/dev/kvm' });
globalThis.gc(); globalThis.gc();
const rssBefore = process.memoryUsage().rss;
const durations = [];
for (let i = 0; i < ${RUNS}; i += 1) durations.push((await runGuest({ devicePath: '/dev/kvm' })).durationMs);
globalThis.gc(); globalThis.gc();
const rssAfter = process.memoryUsage().rss;
const child = ${JSON.stringify(path.join(PACKAGE_ROOT, 'dist/core/kvm/guest-child.js'))};
const config = JSON.stringify({ devicePath: '/dev/kvm', codeHex: 'b05ae6e9f4', ffiModule: 'koffi' });
const childPeakKiB = [];
for (let i = 0; i < 3; i += 1) {
  const stdout = await new Promise((resolve) => execFile(process.execPath, [child, config], (_e, out) => resolve(out)));
  childPeakKiB.push(JSON.parse(stdout.trim().split('\\n').at(-1)).summary?.maxRssKiB ?? NaN);
}
process.stdout.write(JSON.stringify({ outcome: first.outcome, durations, rssBefore, rssAfter, childPeakKiB }));
`;

/**
 * kvm.run's cost to the agent, on /dev/kvm as this machine has it (the figures hold for a failing
 * run too): one run, child process start included; the RSS the agent's own process gains over
 * many runs; and the child's peak RSS, which the agent's container holds while a run lasts.
 */
export async function kvmRunBench(): Promise<BenchRow[]> {
  const runner = path.join(PACKAGE_ROOT, 'dist/core/kvm/run-guest.js');
  if (!existsSync(runner)) throw new Error('dist/ is missing: run `npm run build` before `npm run bench`');
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', SCRIPT(runner)], {
    env: { ...process.env, NODE_OPTIONS: AGENT_NODE_OPTIONS },
  });
  const sample = JSON.parse(stdout) as Sample;
  const section = 'kvm.run (tiny guest)';
  return [
    { section, figure: `one run, child process start included, median (outcome here: ${sample.outcome})`, value: median(sample.durations), unit: 'ms' },
    { section, figure: 'one run, p95', value: p95(sample.durations), unit: 'ms', target: { text: '≤ 1 s (the agent probes every 5 min)', met: (v) => v <= 1000 } },
    { section, figure: `RSS the agent process gains over ${RUNS} runs, after GC (chart V8 settings)`, value: (sample.rssAfter - sample.rssBefore) / 2 ** 20, unit: 'MiB', target: { text: '≤ 2 MiB', met: (v) => v <= 2 } },
    { section, figure: 'peak RSS of the guest child while it runs (chart V8 settings)', value: median(sample.childPeakKiB) / 1024, unit: 'MiB', baseline: { label: 'agent memory limit', value: 256 }, ratio: 'value/baseline' },
  ];
}
