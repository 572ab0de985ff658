import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { median } from './stats.ts';
import type { BenchRow } from './table.ts';

const run = promisify(execFile);

interface OnceResult {
  loadMs: number;
  collectMs: number;
  rssDeltaMiB: number;
  maxBlockedMs: number;
  collected: boolean;
}

/** The agent's one-time inventory cost (the kernel's files under /proc and /sys), each run in a fresh process. */
export async function inventoryBench(runs = 10): Promise<BenchRow[]> {
  const section = 'inventory (/proc and /sys, once at agent start)';
  const script = path.join(PACKAGE_ROOT, 'bench/inventory-once.ts');
  const results: OnceResult[] = [];
  for (let n = 0; n < runs; n += 1) {
    const { stdout } = await run(process.execPath, [script]);
    const result = JSON.parse(stdout) as OnceResult;
    if (!result.collected) throw new Error('inventory bench: the inventory was not collected on this machine');
    results.push(result);
  }
  const of = (key: keyof Omit<OnceResult, 'collected'>) => median(results.map((result) => result[key]));
  return [
    { section, figure: 'load core/inventory (zod; systeminformation only for an arm64 CPU name), median', value: of('loadMs'), unit: 'ms' },
    { section, figure: 'collect system, CPU and memory, median', value: of('collectMs'), unit: 'ms', target: { text: '≤ 1 s (once, before serving)', met: (v) => v <= 1000 } },
    { section, figure: 'RSS added (load + collect), median', value: of('rssDeltaMiB'), unit: 'MiB', target: { text: '≤ 32 MiB', met: (v) => v <= 32 } },
    { section, figure: 'longest event-loop block, median', value: of('maxBlockedMs'), unit: 'ms' },
  ];
}
