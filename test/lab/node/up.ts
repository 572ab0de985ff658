/**
 * Starts the real node by hand and keeps it until Ctrl-C, for a shell on it (docs/development.md):
 *
 *   sudo -E node test/lab/node/up.ts            (root: it makes a bridge, mounts, cgroups)
 *   sudo -E node test/lab/node/up.ts --chart    (the demo on the real node: also installs the chart)
 *
 * It prints the admin kubeconfig and the containerd socket, then waits. With --chart it first
 * installs the chart (only image and pullPolicy values), waits until the agent pod has labelled
 * the node and prints the aggregator's page through its Service. Ctrl-C (or killing it) stops
 * every process and removes everything it made, as the suite does.
 */
import { once } from 'node:events';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { CHART_DIR, helmOk } from '../chart/helm.ts';
import { locateBinaries } from '../controlplane/binaries.ts';
import { waitFor } from '../support/wait.ts';
import { buildImages } from './images.ts';
import { RealNode } from './real-node.ts';
import { imageValues, NS, RELEASE } from './release.ts';

const node = await RealNode.start(await locateBinaries(), await buildImages());
const { controlPlane, images, containerdSocket } = node.info;
process.stdout.write(`
The real node ${node.info.nodeName} is Ready (API server ${controlPlane.server}).

  export KUBECONFIG=${controlPlane.adminKubeconfig}
  ${controlPlane.binDir}/kubectl get nodes -o wide
  ${controlPlane.binDir}/helm install virtgate charts/virtgate --namespace vgnode-virtgate --create-namespace \\
    --set agent.image.repository=${images.agent.repository} --set agent.image.tag=${images.agent.tag} --set agent.image.pullPolicy=Never \\
    --set aggregator.image.repository=${images.aggregator.repository} --set aggregator.image.tag=${images.aggregator.tag} --set aggregator.image.pullPolicy=Never
  ctr --address ${containerdSocket} --namespace k8s.io containers ls
  # logs of containerd, kubelet, kube-proxy: ${'$'}(dirname ${containerdSocket})/logs/

Ctrl-C stops it and removes everything it made.
`);
if (process.argv.includes('--chart')) {
  const namespace = NS;
  await helmOk(controlPlane.binDir, ['install', RELEASE, CHART_DIR, '--namespace', namespace, '--create-namespace', ...imageValues(images)], controlPlane.adminKubeconfig);
  const admin = new KubeConfig();
  admin.loadFromFile(controlPlane.adminKubeconfig);
  const core = admin.makeApiClient(CoreV1Api);
  const labels = await waitFor('the agent pod to label the node', async () => {
    const labelled = (await core.readNode({ name: node.info.nodeName })).metadata?.labels ?? {};
    return labelled['virtgate.io/ready'] !== undefined ? labelled : undefined;
  }, 240_000, 500);
  const service = await core.readNamespacedService({ namespace, name: 'virtgate-aggregator' });
  process.stdout.write(`The chart is installed (namespace ${namespace}); the agent pod published on this machine:
${Object.entries(labels).filter(([key]) => key.startsWith('virtgate.io/')).map(([key, value]) => `  ${key}=${value}`).join('\n')}
  The aggregator's page and API through its Service: http://${service.spec?.clusterIP}:${service.spec?.ports?.[0]?.port}/
`);
}
await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
await node.stop();
