/**
 * Starts the three-node cluster by hand and keeps it until Ctrl-C, for a shell on it
 * (docs/development.md, "The three-node cluster"):
 *
 *   sudo -E node test/lab/cluster/up.ts     (root: namespaces, a bridge, mounts, cgroups)
 *
 * It prints the admin kubeconfig and how to enter each node, then waits. Ctrl-C (or killing it)
 * stops every process and removes everything it made, as the suite does.
 */
import { once } from 'node:events';
import { locateBinaries } from '../controlplane/binaries.ts';
import { buildImages } from '../node/images.ts';
import { RealCluster } from './cluster.ts';
import { CLUSTER_LAYOUT, enterNode } from './layout.ts';

const cluster = await RealCluster.start(await locateBinaries(), await buildImages());
const { controlPlane, nodes } = cluster.info;
process.stdout.write(`
Three nodes are Ready in ${(cluster.info.startupMs / 1000).toFixed(1)} s (API server ${controlPlane.server}).

  export KUBECONFIG=${controlPlane.adminKubeconfig}
  ${controlPlane.binDir}/kubectl get nodes -o wide
${CLUSTER_LAYOUT.nodes.map((n) => `  ${enterNode(n).join(' ')} bash     # a shell on ${n.name}${n.hiddenDevices.length ? ` (without ${n.hiddenDevices.join(', ')})` : ''}`).join('\n')}
${nodes.map((n) => `  ctr --address ${n.containerdSocket} --namespace k8s.io containers ls`).join('\n')}
  # logs of each node's containerd, kubelet, kube-proxy: ${CLUSTER_LAYOUT.root}/nodes/<node>/logs/

Ctrl-C stops it and removes everything it made.
`);
await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
await cluster.stop();
