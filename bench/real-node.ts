/**
 * The real node's figures (`npm run bench -- node`, or `--real-node`): both images built from
 * their Dockerfiles, the node started by the same code as `npm run test:node`
 * (test/lab/node/real-node.ts), the chart installed as a user installs it, and what the kubelet
 * reports for the agent's and the aggregator's containers — beside the agent's RSS floor measured
 * in the same run. Everything is stopped and removed at the end, as after the tests.
 */
import path from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { CHART_DIR, helm, helmOk } from '../test/lab/chart/helm.ts';
import { locateBinaries } from '../test/lab/controlplane/binaries.ts';
import { buildGuestImages } from '../test/lab/kubevirt/guest-images.ts';
import { buildKubevirtImages } from '../test/lab/kubevirt/images.ts';
import { buildImages } from '../test/lab/node/images.ts';
import { RealNode } from '../test/lab/node/real-node.ts';
import { imageValues, NS, readyPod, RELEASE } from '../test/lab/node/release.ts';
import { statsSummary } from '../test/lab/node/stats.ts';
import { waitFor } from '../test/lab/support/wait.ts';
import { AGENT_NODE_OPTIONS, importedRss } from './agent-footprint.ts';
import { kubevirtImageRows, kubevirtTimings } from './kubevirt.ts';
import { median } from './stats.ts';
import type { BenchRow } from './table.ts';

const MiB = 1024 * 1024;
/** /stats/summary samples per container, this far apart, once both pods are Ready and have published. */
const SAMPLES = 6;
const SAMPLE_EVERY_MS = 5_000;

const section = 'real node';

interface Sample {
  workingSet: number;
  cpu: number;
}

export async function realNodeBench(log: (text: string) => void): Promise<BenchRow[]> {
  if (process.getuid?.() !== 0) throw new Error('the real node needs root (a bridge, mounts, cgroups): run `npm run bench -- node` as root');
  const binDir = await locateBinaries();
  const images = await buildImages();
  const [kubevirtImages, guests] = [await buildKubevirtImages(), await buildGuestImages()];
  const kubevirtRows = await kubevirtImageRows(kubevirtImages, guests);

  log('real node: starting it (control plane, containerd, kubelet, kube-proxy)…');
  const node = await RealNode.start(binDir, images, [...Object.values(kubevirtImages), guests.bootsector, guests.linux].map((image) => image.archive));
  const { controlPlane } = node.info;
  const admin = new KubeConfig();
  admin.loadFromFile(controlPlane.adminKubeconfig);
  const core = admin.makeApiClient(CoreV1Api);
  const samples: Record<'agent' | 'aggregator', Sample[]> = { agent: [], aggregator: [] };
  let labelledMs: number;
  try {
    log('real node: helm install, until the agent pod has labelled the node…');
    const started = Date.now();
    await helmOk(controlPlane.binDir, ['install', RELEASE, CHART_DIR, '--namespace', NS, '--create-namespace', ...imageValues(images)], controlPlane.adminKubeconfig);
    await waitFor('the agent pod to label the node', async () => {
      const node1 = await core.readNode({ name: node.info.nodeName });
      const labelled = node1.metadata?.labels?.['virtgate.io/ready'] !== undefined;
      return labelled && node1.status?.conditions?.some((c) => c.type === 'VirtualizationReady') ? true : undefined;
    }, 240_000, 250);
    labelledMs = Date.now() - started;
    await Promise.all([readyPod(core, 'agent'), readyPod(core, 'aggregator')]);
    log(`real node: sampling the kubelet's /stats/summary ${SAMPLES} times, ${SAMPLE_EVERY_MS / 1000} s apart…`);
    for (let i = 0; i < SAMPLES; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
      const summary = await statsSummary(admin, node.info.nodeName);
      for (const component of ['agent', 'aggregator'] as const) {
        const pod = summary.pods.find((p) => p.podRef.namespace === NS && p.podRef.name.startsWith(`${RELEASE}-${component}-`));
        const container = pod?.containers.find((c) => c.name === component);
        const workingSet = container?.memory?.workingSetBytes;
        if (workingSet) samples[component].push({ workingSet, cpu: container?.cpu?.usageNanoCores ?? 0 });
      }
    }
    kubevirtRows.push(...(await kubevirtTimings(node.info, admin, guests, log)));
  } finally {
    log('real node: helm uninstall, stopping the node…');
    await helm(controlPlane.binDir, ['uninstall', RELEASE, '--namespace', NS, '--timeout', '2m'], controlPlane.adminKubeconfig).catch(() => undefined);
    await node.stop();
  }
  if (samples.agent.length === 0 || samples.aggregator.length === 0) throw new Error('the kubelet reported no working set for the agent or the aggregator container');
  const floor = await importedRss(path.join(PACKAGE_ROOT, 'dist/cli/commands/agent.js'), AGENT_NODE_OPTIONS);
  const workingSet = (component: 'agent' | 'aggregator') => median(samples[component].map((s) => s.workingSet)) / MiB;
  const cpu = (component: 'agent' | 'aggregator') => median(samples[component].map((s) => s.cpu)) / 1e6;

  const rows: BenchRow[] = [];
  rows.push(
    { section, figure: 'node start to Ready (control plane, containerd + image import, kubelet)', value: node.info.startupMs / 1000, unit: 's' },
    { section, figure: '`helm install` to the node labelled by the agent pod', value: labelledMs / 1000, unit: 's' },
    {
      section,
      figure: `agent container working set (kubelet /stats/summary, median of ${SAMPLES})`,
      value: workingSet('agent'),
      unit: 'MiB',
      target: { text: '≤ 64 MiB', met: (v) => v <= 64 },
      baseline: { label: 'RSS floor (same run)', value: floor },
      ratio: 'value/baseline',
    },
    { section, figure: 'agent container CPU, idle between probes (kubelet)', value: cpu('agent'), unit: 'mcores' },
    { section, figure: `aggregator container working set (kubelet, median of ${SAMPLES}), one node`, value: workingSet('aggregator'), unit: 'MiB' },
    { section, figure: 'aggregator container CPU (kubelet), one node', value: cpu('aggregator'), unit: 'mcores' },
    ...kubevirtRows,
  );
  return rows;
}
