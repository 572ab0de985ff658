import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import type { BenchCluster } from './cluster.ts';
import type { BenchRow } from './table.ts';

const run = promisify(execFile);
const MiB = 1024 * 1024;

/** The V8 settings the chart runs the agent with (values.yaml `agent.nodeOptions`). */
export const AGENT_NODE_OPTIONS = '--max-semi-space-size=1 --jitless';

interface Checkpoint {
  cycle: number;
  rss: number;
  heapUsed: number;
}

const DIST = path.join(PACKAGE_ROOT, 'dist');

/**
 * The child's script, agent-cycles.ts without its types, as a plain ES module in a temporary
 * directory: the chart's --jitless leaves the child no WebAssembly, which Node's type stripping
 * needs, and the bench's code stays out of dist/.
 */
async function childScript(): Promise<{ file: string; remove: () => Promise<void> }> {
  if (!existsSync(path.join(DIST, 'agent/agent.js'))) throw new Error('dist/agent/agent.js is missing: run `npm run build` first');
  const source = await readFile(path.join(PACKAGE_ROOT, 'bench/agent-cycles.ts'), 'utf8');
  const directory = await mkdtemp(path.join(os.tmpdir(), 'virtgate-bench-'));
  const file = path.join(directory, 'agent-cycles.mjs');
  await writeFile(file, stripTypeScriptTypes(source));
  return { file, remove: () => rm(directory, { recursive: true, force: true }) };
}

/** Runs the compiled agent's own cycle (probe + publish) back to back in a child process. */
async function cycles(cluster: BenchCluster, name: string, nodeOptions: string, total: number): Promise<Checkpoint[]> {
  const node = await cluster.node(name, 'intel-metal');
  const child = await childScript();
  try {
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', child.file, DIST, node.kubeconfig, node.name, node.host.root, String(total)],
      { env: { ...process.env, NODE_OPTIONS: nodeOptions }, maxBuffer: 1024 * 1024 },
    );
    return stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Checkpoint);
  } finally {
    await child.remove();
  }
}

/**
 * RSS of a Node process that has only imported `entry` (nothing, or the agent's command module), after
 * GC: the floor under the agent's figure, measured with the same V8 settings.
 */
export async function importedRss(entry: string | undefined, nodeOptions: string): Promise<number> {
  const script = [
    entry ? `await import(${JSON.stringify(entry)});` : '',
    'globalThis.gc(); globalThis.gc();',
    'process.stdout.write(String(process.memoryUsage().rss));',
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
  });
  return Number(stdout) / MiB;
}

function at(points: Checkpoint[], cycle: number): Checkpoint {
  const point = points.find((p) => p.cycle === cycle);
  if (!point) throw new Error(`no checkpoint at cycle ${cycle}`);
  return point;
}

/**
 * RSS of the compiled agent after 100 and 1,000 back-to-back cycles against the real API server,
 * with Node's default V8 settings and with the chart's, side by side.
 */
export async function agentFootprintBench(cluster: BenchCluster): Promise<BenchRow[]> {
  const defaults = await cycles(cluster, 'bench-footprint-defaults', '', 100);
  const tuned = await cycles(cluster, 'bench-footprint', AGENT_NODE_OPTIONS, 1000);
  const section = 'agent footprint';
  const agentModule = path.join(PACKAGE_ROOT, 'dist/cli/commands/agent.js');
  const bareNode = await importedRss(undefined, AGENT_NODE_OPTIONS);
  const agentLoaded = await importedRss(agentModule, AGENT_NODE_OPTIONS);
  return [
    {
      section,
      figure: `RSS after 100 cycles (NODE_OPTIONS=${AGENT_NODE_OPTIONS}, as the chart runs it)`,
      value: at(tuned, 100).rss / MiB,
      unit: 'MiB',
      // What the agent adds on top of Node 24 with its libraries loaded: a fixed MiB target cannot
      // be met with the Kubernetes client the design uses (its floor alone is over 100 MiB).
      target: { text: '≤ 1.15× floor', met: (v) => v <= 1.15 * agentLoaded },
      baseline: { label: 'floor (same run)', value: agentLoaded },
      ratio: 'value/baseline',
    },
    {
      section,
      figure: 'RSS after 100 cycles, Node defaults',
      value: at(defaults, 100).rss / MiB,
      unit: 'MiB',
      baseline: { label: 'chart settings', value: at(tuned, 100).rss / MiB },
      ratio: 'value/baseline',
    },
    { section, figure: 'RSS after 1,000 cycles (chart settings)', value: at(tuned, 1000).rss / MiB, unit: 'MiB' },
    {
      // The floor: what the target competes with before the agent does any work.
      section,
      figure: 'floor: agent code loaded, no cycle run (chart settings)',
      value: agentLoaded,
      unit: 'MiB',
      baseline: { label: 'empty Node 24 process', value: bareNode },
      ratio: 'value/baseline',
    },
    {
      section,
      figure: 'heap after GC, growth from cycle 100 to 1,000',
      value: (at(tuned, 1000).heapUsed - at(tuned, 100).heapUsed) / MiB,
      unit: 'MiB',
      target: { text: '≤ 1 MiB (no leak)', met: (v) => v <= 1 },
    },
  ];
}
