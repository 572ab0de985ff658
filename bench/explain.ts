/**
 * `npm run bench -- explain`: what one `virtgate explain` answer costs once the cluster is read, at
 * 5,000 nodes whose reports an agent wrote (in process, no API server): the requirements derived,
 * every node judged, the groups built. Issue 42's target for one explanation is p95 ≤ 50 ms; the
 * baseline is what the aggregator already spends on the same nodes each recompute, assessing each
 * one's readiness (assessNode), measured in the same run.
 */
import { assessNode } from '../aggregator/readiness/assess-node.ts';
import { readReport } from '../core/report/read.ts';
import { explain } from '../explain/explanation.ts';
import { KUBEVIRT_DEFAULTS } from '../explain/kubevirt-config.ts';
import { type NodeView, readNodeResources } from '../explain/node-view.ts';
import { readVmiInput } from '../explain/vmi-input.ts';
import { agentNodeValidation } from '../test/lab/reports/agent-report.ts';
import { benchNode } from './narrowing.ts';
import { p95 } from './stats.ts';
import type { BenchRow } from './table.ts';

const NODES = 5000;
const RUNS = 40;
const NOW_MS = Date.parse('2026-12-02T12:00:30Z');
const OPTIONS = { staleAfterSeconds: 600, prefix: 'virtgate.io', nowMs: NOW_MS };

function views(): NodeView[] {
  return Array.from({ length: NODES }, (_, i) => {
    const read = readNodeResources(benchNode(i));
    if (!read) throw new Error('unreadable bench node');
    // The report of this node's own agent (its owner reference carries the Node's uid); every tenth host lacks /dev/kvm.
    const report = readReport(agentNodeValidation(read.node.name, read.node.uid ?? '', { kvm: i % 10 !== 0 }, new Date(NOW_MS - 30_000)), { hints: true });
    return { ...read, allocatable: { ...read.allocatable, 'devices.kubevirt.io/kvm': 1000, 'devices.kubevirt.io/tun': 1000, 'devices.kubevirt.io/vhost-net': 1000 }, requested: { cpu: 10, memory: 64 * 2 ** 30 }, assessed: assessNode(read.node, [report], OPTIONS) };
  });
}

/** CPU milliseconds of each run: the figure should not depend on what else the machine runs. */
function cpuRuns(fn: () => unknown): number[] {
  for (let i = 0; i < 5; i += 1) fn();
  return Array.from({ length: RUNS }, () => {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  });
}

export function explainBench(): BenchRow[] {
  const nodes = views();
  const vmi = readVmiInput(
    { kind: 'VirtualMachineInstance', metadata: { name: 'fedora', namespace: 'vms' }, spec: { architecture: 'amd64', nodeSelector: { 'virtgate.io/pool': 'gpu' }, domain: { cpu: { cores: 2, model: 'host-model' }, devices: { interfaces: [{ name: 'default', masquerade: {} }] }, resources: { requests: { memory: '2Gi' } } } } },
    'bench',
    { clusterCpuModel: null, defaultArchitecture: 'amd64' },
    { fromServer: true },
  );
  const context = { prefix: 'virtgate.io', workloadsPlacement: null, permittedHostDevices: [] };
  const answer = explain({ vmi, config: KUBEVIRT_DEFAULTS, nodes, context });
  if (answer.placement.candidates !== NODES) throw new Error('the bench explained fewer nodes than it built');
  const explainMs = p95(cpuRuns(() => explain({ vmi, config: KUBEVIRT_DEFAULTS, nodes, context })));
  const groupsMs = p95(cpuRuns(() => explain({ vmi, config: KUBEVIRT_DEFAULTS, nodes, context }, { perNode: false })));
  const reports = nodes.map((view) => {
    if (view.assessed.report === null) throw new Error(`the bench's report of ${view.node.name} was not attributed: ${view.assessed.readiness.reason}`);
    return { state: 'valid', report: view.assessed.report } as const;
  });
  const assessMs = p95(cpuRuns(() => nodes.map((view, i) => assessNode(view.node, [reports[i]!], OPTIONS))));
  const baseline = { label: "assessing the same nodes' readiness (each recompute)", value: assessMs };
  return [
    {
      section: 'explain',
      figure: `one answer over ${NODES.toLocaleString('en-US')} nodes, the groups alone (each node up to its first failure), p95 CPU of ${RUNS}`,
      value: groupsMs,
      unit: 'ms',
      target: { text: '≤ 50 ms', met: (value) => value <= 50 },
      baseline,
      ratio: 'value/baseline',
    },
    {
      section: 'explain',
      figure: `the whole answer (every node with all its failures, as the CLI prints), p95 CPU of ${RUNS}`,
      value: explainMs,
      unit: 'ms',
      baseline,
      ratio: 'value/baseline',
    },
  ];
}

if (import.meta.main) {
  const { renderTable } = await import('./table.ts');
  process.stdout.write(`${renderTable(explainBench())}\n`);
}
