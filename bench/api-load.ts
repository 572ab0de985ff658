import type { AuditEvent } from '../test/lab/controlplane/audit.ts';
import { removeDevice } from '../test/lab/hosts/build-host.ts';
import { type AgentProcess, startAgentProcess } from '../test/lab/processes/launch.ts';
import { waitFor } from '../test/lab/support/wait.ts';
import type { BenchCluster, BenchNode } from './cluster.ts';
import type { BenchRow } from './table.ts';

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete']);
const DEFAULT_INTERVAL_S = 300;
const DEFAULT_HEARTBEAT_S = 600;
const VIRT_HANDLER_WRITES_PER_HOUR = 60;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function byNode(events: AuditEvent[], node: string) {
  const mine = events.filter((e) => e.user.extra?.['authentication.kubernetes.io/node-name']?.[0] === node);
  return {
    writes: mine.filter((e) => WRITE_VERBS.has(e.verb)),
    // Watches stay open; count the requests that completed.
    reads: mine.filter((e) => e.verb === 'get' || e.verb === 'list'),
  };
}

/** Groups write timestamps that land within a second of each other: one group per publish. */
function bursts(writes: AuditEvent[]): number[] {
  const times = writes.map((w) => Date.parse(w.requestReceivedTimestamp)).sort((a, b) => a - b);
  const sizes: number[] = [];
  let last = -Infinity;
  for (const time of times) {
    if (time - last > 1000) sizes.push(0);
    sizes[sizes.length - 1] = (sizes.at(-1) ?? 0) + 1;
    last = time;
  }
  return sizes;
}

async function settled(cluster: BenchCluster, node: BenchNode, args: string[]): Promise<AgentProcess> {
  const agent = await startAgentProcess(['--node-name', node.name, '--kubeconfig', node.kubeconfig, ...node.host.cliArgs, '--no-vhv', '--jitter', '0', ...args]);
  await waitFor(`${node.name}'s first publish`, async () => {
    const metrics = await agent.metrics();
    return /virtgate_last_publish_success_timestamp_seconds\{[^}]*\} [1-9]/.test(metrics) ? true : undefined;
  }, 60_000);
  await sleep(1500);
  return agent;
}

/**
 * Requests per node from the audit log, three agents side by side: one with the heartbeat pushed
 * out of the window (probe cycles only), one with a 60 s heartbeat, one whose host changes.
 */
export async function apiLoadBench(cluster: BenchCluster): Promise<BenchRow[]> {
  const [quietNode, heartbeatNode, changeNode] = await Promise.all([
    cluster.node('bench-load-quiet', 'intel-metal'),
    cluster.node('bench-load-heartbeat', 'intel-metal'),
    cluster.node('bench-load-change', 'intel-metal'),
  ]);
  const agents = await Promise.all([
    settled(cluster, quietNode, ['--interval', '10s', '--heartbeat', '24h']),
    settled(cluster, heartbeatNode, ['--interval', '10s', '--heartbeat', '60s']),
    settled(cluster, changeNode, ['--interval', '10s', '--heartbeat', '24h']),
  ]);
  const start = await cluster.audit.mark();
  const startedAt = Date.now();

  // The change: /dev/kvm disappears; wait for the flip to be published in full.
  await removeDevice(changeNode.host.root, 'kvm');
  const changeAgent = agents[2];
  await waitFor('the verdict change to be published', async () => (changeAgent?.logs.some((l) => l.decision === 'transition') ? true : undefined), 30_000);
  await sleep(2000);
  const changeWrites = byNode(await cluster.audit.since(start), changeNode.name).writes;

  // 125 s covers the heartbeat agent's refreshes at +60, +90 and +120 s.
  await sleep(Math.max(0, 125_000 - (Date.now() - startedAt)));
  const windowS = (Date.now() - startedAt) / 1000;
  const events = await cluster.audit.since(start);
  await Promise.all(agents.map((agent) => agent.stop()));

  const quiet = byNode(events, quietNode.name);
  const heartbeat = byNode(events, heartbeatNode.name);
  const quietCycles = windowS / 10;
  const readsPerCycle = quiet.reads.length / quietCycles;
  const heartbeatBursts = bursts(heartbeat.writes);
  const writesPerHeartbeat = Math.max(0, ...heartbeatBursts);
  // At the defaults: a heartbeat every heartbeat/2 (the two objects alternate), a probe per interval.
  const heartbeatsPerHour = 3600 / (DEFAULT_HEARTBEAT_S / 2);
  const writesPerHour = writesPerHeartbeat * heartbeatsPerHour;
  const readsPerHour = readsPerCycle * (3600 / DEFAULT_INTERVAL_S) + 2 * heartbeatsPerHour;

  const section = 'API load per node';
  return [
    { section, figure: `writes between heartbeats (${Math.round(quietCycles)} probe cycles)`, value: quiet.writes.length, unit: '', target: { text: '0', met: (v) => v === 0 } },
    { section, figure: `writes per heartbeat (${heartbeatBursts.length} heartbeats seen)`, value: writesPerHeartbeat, unit: '', target: { text: '≤ 1', met: (v) => v <= 1 } },
    { section, figure: 'writes per hour, steady state, default settings', value: writesPerHour, unit: '/h', baseline: { label: 'KubeVirt virt-handler heartbeat', value: VIRT_HANDLER_WRITES_PER_HOUR }, ratio: 'baseline/value' },
    { section, figure: 'reads per probe cycle (GET node + NodeValidation)', value: readsPerCycle, unit: '' },
    { section, figure: 'reads per hour, steady state, default settings', value: readsPerHour, unit: '/h' },
    { section, figure: `writes for one verdict change (${[...new Set(changeWrites.map((w) => w.objectRef?.resource))].join(', ')})`, value: changeWrites.length, unit: '' },
  ];
}
