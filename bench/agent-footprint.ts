import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import type { BenchRow } from './table.ts';
import type { BenchCluster } from './cluster.ts';

const run = promisify(execFile);
const MiB = 1024 * 1024;

/** RSS of the agent after 100 and 1,000 back-to-back cycles against the real API server. */
export async function agentFootprintBench(cluster: BenchCluster): Promise<BenchRow[]> {
  const node = await cluster.node('bench-footprint', 'intel-metal');
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', path.join(PACKAGE_ROOT, 'bench/agent-cycles.ts'), node.kubeconfig, node.name, node.host.root, node.host.deviceNumbers ?? '', '1000'],
    { maxBuffer: 1024 * 1024 },
  );
  const points = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { cycle: number; rss: number; heapUsed: number });
  const at = (cycle: number) => {
    const point = points.find((p) => p.cycle === cycle);
    if (!point) throw new Error(`no checkpoint at cycle ${cycle}: ${stdout}`);
    return point;
  };
  const section = 'agent footprint';
  const growth = (at(1000).heapUsed - at(100).heapUsed) / MiB;
  return [
    {
      section,
      figure: 'RSS after 100 cycles',
      value: at(100).rss / MiB,
      unit: 'MiB',
      target: { text: '≤ 64 MiB', met: (v) => v <= 64 },
      baseline: { label: 'node-feature-discovery worker request', value: 64 },
      ratio: 'value/baseline',
    },
    { section, figure: 'RSS after 1,000 cycles', value: at(1000).rss / MiB, unit: 'MiB' },
    {
      section,
      figure: 'heap growth, cycles 100 → 1,000 (after GC)',
      value: growth,
      unit: 'MiB',
      target: { text: '≤ 2 MiB (no leak)', met: (v) => v <= 2 },
    },
  ];
}
