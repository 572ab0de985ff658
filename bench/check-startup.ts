import { existsSync } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { median } from './stats.ts';
import type { BenchRow } from './table.ts';

const RECORDER = path.join(PACKAGE_ROOT, 'test/lab/support/spawn-recorder.ts');
const TIME_MARK = 'virtgate-bench-time=';

interface ProcessCost {
  wallMs: number;
  cpuMs: number;
}

/**
 * One run of a whole process, timed by bash's `time` keyword around the command alone (not bash's
 * own start): wall, and user + system CPU from the kernel's accounting of the waited-for child, to
 * the millisecond. GNU time prints CPU in 10 ms steps, too coarse for a 20 ms baseline.
 */
async function measure(command: string[]): Promise<ProcessCost> {
  const script = `TIMEFORMAT='${TIME_MARK}%3R %3U %3S'; time "$@" </dev/null >/dev/null 2>/dev/null`;
  const result = await execa('bash', ['-c', script, 'bash', ...command], { reject: false, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  const line = result.stderr.split('\n').find((text) => text.startsWith(TIME_MARK));
  if (!line) throw new Error(`bench: bash's time did not report on ${command.join(' ')}: ${result.stderr.slice(0, 200)}`);
  const [real = Number.NaN, user = Number.NaN, system = Number.NaN] = line.slice(TIME_MARK.length).split(' ').map(Number);
  return { wallMs: real * 1000, cpuMs: (user + system) * 1000 };
}

/** The command and `node -e 0` in turn, A B A B …, after one unmeasured run each: each pair's ratio holds while the machine's speed drifts. */
async function paired(command: string[], runs: number): Promise<{ command: ProcessCost[]; node: ProcessCost[]; wallRatios: number[]; cpuRatios: number[] }> {
  const node = [process.execPath, '-e', '0'];
  await measure(command);
  await measure(node);
  const out = { command: [] as ProcessCost[], node: [] as ProcessCost[], wallRatios: [] as number[], cpuRatios: [] as number[] };
  for (let i = 0; i < runs; i += 1) {
    const a = await measure(command);
    const b = await measure(node);
    out.command.push(a);
    out.node.push(b);
    out.wallRatios.push(a.wallMs / b.wallMs);
    // Millisecond steps: a floor of 1 ms keeps a 0 from making the ratio infinite.
    out.cpuRatios.push(a.cpuMs / Math.max(b.cpuMs, 1));
  }
  return out;
}

/** Child processes one run starts, as the recorder preloaded into it counts them (test/lab/support/spawn-recorder.ts). */
async function childrenOf(command: string[]): Promise<number> {
  const log = path.join(tmpdir(), `virtgate-bench-spawns-${process.pid}.jsonl`);
  await (await open(log, 'w')).close();
  await execa(command[0] as string, command.slice(1), { reject: false, stdin: 'ignore', env: { NODE_OPTIONS: `--import ${RECORDER}`, VIRTGATE_LAB_SPAWN_LOG: log } });
  const count = (await readFile(log, 'utf8')).split('\n').filter(Boolean).length;
  await rm(log, { force: true });
  return count;
}

async function kvmOpens(): Promise<boolean> {
  try {
    await (await open('/dev/kvm', 'r+')).close();
    return true;
  } catch {
    return false;
  }
}

/**
 * `virtgate check --no-vhv --json` from the built bin (the bundle), against `node -e 0` in the
 * same run: the target is ≤ 2× in wall and CPU time, and no child process where /dev/kvm does
 * not open. Where it opens, kvm.run's child is part of the command, so the same figures are also
 * given with --no-kvm-run, which the target then applies to.
 */
export async function checkStartupBench(runs = 10): Promise<BenchRow[]> {
  const section = 'check start-up';
  const cli = path.join(PACKAGE_ROOT, 'dist/cli/main.js');
  if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` before `npm run bench`');
  const opens = await kvmOpens();
  const twice = { text: '≤ 2× `node -e 0`', met: (ratio: number) => ratio <= 2 };
  const none = { text: '0', met: (count: number) => count === 0 };
  const variants: Array<{ label: string; args: string[]; judged: boolean }> = [
    { label: `\`virtgate check --no-vhv --json\`${opens ? ' (/dev/kvm opens here: kvm.run\'s child included)' : ' (/dev/kvm does not open here)'}`, args: ['check', '--no-vhv', '--json'], judged: !opens },
    ...(opens ? [{ label: '`virtgate check --no-vhv --no-kvm-run --json`', args: ['check', '--no-vhv', '--no-kvm-run', '--json'], judged: true }] : []),
  ];
  const rows: BenchRow[] = [];
  for (const variant of variants) {
    const command = [process.execPath, cli, ...variant.args];
    const run = await paired(command, runs);
    const node = { wall: median(run.node.map((cost) => cost.wallMs)), cpu: median(run.node.map((cost) => cost.cpuMs)) };
    rows.push(
      { section, figure: `${variant.label}, wall, median of ${runs}`, value: median(run.command.map((cost) => cost.wallMs)), unit: 'ms', baseline: { label: '`node -e 0`', value: node.wall }, ratio: 'value/baseline' },
      { section, figure: `${variant.label}, wall, median of the paired ratios`, value: median(run.wallRatios), unit: '×', ...(variant.judged ? { target: twice } : {}) },
      { section, figure: `${variant.label}, CPU (user + sys), median of ${runs}`, value: median(run.command.map((cost) => cost.cpuMs)), unit: 'ms', baseline: { label: '`node -e 0`', value: node.cpu }, ratio: 'value/baseline' },
      { section, figure: `${variant.label}, CPU, median of the paired ratios`, value: median(run.cpuRatios), unit: '×', ...(variant.judged ? { target: twice } : {}) },
      { section, figure: `${variant.label}, child processes started`, value: await childrenOf(command), unit: '', ...(variant.judged ? { target: none } : {}) },
    );
  }
  return rows;
}
