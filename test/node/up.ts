/**
 * Starts the real node by hand and keeps it until Ctrl-C, for a shell on it (docs/development.md):
 *
 *   sudo -E node test/node/up.ts            (root: it makes a bridge, mounts, cgroups)
 *
 * It prints the admin kubeconfig and the containerd socket, then waits. Ctrl-C (or killing it)
 * stops every process and removes everything it made, as the suite does.
 */
import { once } from 'node:events';
import { locateBinaries } from '../controlplane/binaries.ts';
import { buildImages } from './images.ts';
import { RealNode } from './real-node.ts';

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
await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
await node.stop();
