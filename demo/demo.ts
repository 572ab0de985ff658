/**
 * Starts the demo: a real control plane (etcd + kube-apiserver), the NodeValidation, KubeVirt and CDI
 * CRDs with a KubeVirt CR placed as the chart's NOTES recommend, one fake Node per fixture host with
 * a real `virtgate agent` process probing that host, and the real `virtgate aggregator`.
 * Everything lives in the control plane's temp directory; `stop()` takes it all down.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { z } from 'zod';
import { locateBinaries } from '../test/controlplane/binaries.ts';
import { ControlPlane } from '../test/controlplane/control-plane.ts';
import { createNode } from '../test/controlplane/identities.ts';
import { recommendedPlacement } from '../test/e2e/recommended-placement.ts';
import { SCHEDULABLE_LABEL } from '../test/e2e/virt-launcher.ts';
import { buildHost, type BuiltHost } from '../test/hosts/build-host.ts';
import { CDI_CRD, createCdi, createKubeVirt, KUBEVIRT_CRD } from '../test/support/aggregator-cluster.ts';
import { installCrd } from '../test/support/crds.ts';
import { DEMO_NODES, type DemoNode } from './nodes.ts';
import { type ServedProcess, startServed } from './processes.ts';

/** Probe often, so that changing a fixture host shows within seconds. */
const AGENT_INTERVAL = '15s';

export interface DemoOptions {
  /** Aborting it stops a start-up in progress (what is already running is taken down). */
  signal: AbortSignal;
  /** Progress lines. */
  say: (line: string) => void;
}

export interface RunningDemo {
  url: string;
  kubeconfig: string;
  dir: string;
  hosts: Array<{ node: DemoNode; root: string }>;
  agentInterval: string;
  /** Every process the demo started, by name (etcd, kube-apiserver, agent-<node>, aggregator). */
  pids: Record<string, number>;
  /** Stops agents, aggregator and control plane, and removes the temp directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** Thrown for a missing prerequisite: the message says what to do, no stack needed. */
export class DemoPrerequisiteError extends Error {}

const nodesResponse = z.object({ nodes: z.array(z.object({ name: z.string(), state: z.string() })) });

export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const { signal, say } = options;
  if (process.getuid?.() !== 0) {
    throw new DemoPrerequisiteError(
      'the demo builds fixture hosts with real device nodes (mknod), which needs root: run it as root, e.g. in a throwaway VM or container',
    );
  }
  let binDir: string;
  try {
    binDir = await locateBinaries();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new DemoPrerequisiteError(`the demo runs the local control plane, which is not built yet. Run once: bash test/controlplane/build.sh\n${detail}`);
  }

  // Undone in reverse order by stop(): aggregator, agents, then the control plane.
  const undo: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (let step = undo.pop(); step; step = undo.pop()) await step().catch(() => undefined);
  };
  try {
    const started = Date.now();
    say('Starting etcd and kube-apiserver ...');
    const plane = await ControlPlane.start(binDir);
    undo.push(() => plane.stop());
    signal.throwIfAborted();
    const { dir, adminKubeconfig } = plane.info;
    const kc = new KubeConfig();
    kc.loadFromFile(adminKubeconfig);

    say('Installing the CRDs, a KubeVirt CR placed as the chart recommends, and a CDI CR ...');
    await Promise.all([installCrd(kc), installCrd(kc, KUBEVIRT_CRD), installCrd(kc, CDI_CRD)]);
    const placement = await recommendedPlacement(path.join(binDir, 'helm'));
    await createKubeVirt(kc, { name: 'kubevirt', namespace: 'kubevirt', version: 'v1.9.0', nodePlacement: placement });
    await createCdi(kc, 'cdi', 'v1.66.0');
    signal.throwIfAborted();

    say(`Building ${DEMO_NODES.length} fixture hosts and their Nodes ...`);
    const hosts: Array<{ node: DemoNode; host: BuiltHost }> = [];
    for (const node of DEMO_NODES) {
      // Inside the control plane's directory, so the watchdog removes them if the demo is killed.
      const host = await buildHost(path.join(dir, 'hosts', node.name), node.profile);
      // virt-handler labels every node it runs on schedulable, /dev/kvm or not: the gap virtgate fills.
      await createNode(kc, node.name, { labels: { [SCHEDULABLE_LABEL]: 'true' }, kernelVersion: node.kernelVersion, osImage: node.osImage });
      hosts.push({ node, host });
    }
    signal.throwIfAborted();

    say(`Starting ${hosts.length} agents and the aggregator ...`);
    const agents: ServedProcess[] = [];
    undo.push(async () => {
      await Promise.all(agents.map((agent) => agent.stop()));
    });
    // The agents use the admin kubeconfig: a pod-bound ServiceAccount token (what an agent gets in
    // a cluster, see docs/security.md) expires after an hour, and the demo may stay up for longer.
    const agentArgs = (node: DemoNode, host: BuiltHost) => (port: number) => [
      'agent', '--node-name', node.name, '--kubeconfig', adminKubeconfig, ...host.cliArgs,
      '--no-vhv', '--interval', AGENT_INTERVAL, '--jitter', '0', '--port', String(port), '--bind-address', '127.0.0.1',
    ];
    await Promise.all(
      hosts.map(async ({ node, host }) => {
        agents.push(await startServed({ name: `agent-${node.name}`, dir, args: agentArgs(node, host), readyPath: '/healthz', signal }));
      }),
    );
    const aggregator = await startServed({
      name: 'aggregator',
      dir,
      args: (port) => ['aggregator', '--kubeconfig', adminKubeconfig, '--port', String(port), '--bind-address', '127.0.0.1'],
      readyPath: '/readyz',
      signal,
    });
    undo.push(() => aggregator.stop());

    // Ready to look at once every agent has published and the aggregator has read it.
    const deadline = Date.now() + 60_000;
    for (;;) {
      signal.throwIfAborted();
      const response = await fetch(`${aggregator.url}/api/v1/nodes`).catch(() => undefined);
      const body = response?.status === 200 ? nodesResponse.safeParse(await response.json()) : undefined;
      const assessed = body?.success ? body.data.nodes.filter((node) => node.state !== 'unknown').length : 0;
      if (assessed === DEMO_NODES.length) break;
      if (Date.now() > deadline) throw new Error(`the agents did not publish within 60 s (${assessed} of ${DEMO_NODES.length}); logs in ${path.join(dir, 'logs')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    say(`Up in ${((Date.now() - started) / 1000).toFixed(1)} s.`);

    return {
      url: `${aggregator.url}/`,
      kubeconfig: adminKubeconfig,
      dir,
      hosts: hosts.map(({ node, host }) => ({ node, root: host.root })),
      agentInterval: AGENT_INTERVAL,
      pids: await pidsIn(path.join(dir, 'pids')),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The pid files ManagedProcess writes, by process name. */
async function pidsIn(dir: string): Promise<Record<string, number>> {
  const pids: Record<string, number> = {};
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.pid')).sort()) {
    pids[file.slice(0, -'.pid'.length)] = Number(await readFile(path.join(dir, file), 'utf8'));
  }
  return pids;
}
