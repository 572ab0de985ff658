import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { ManagedProcess } from '../controlplane/process.ts';
import { freePort } from '../controlplane/ports.ts';
import { type NodeHost, SINGLE_NODE } from './layout.ts';

/**
 * kube-proxy in iptables mode: Service addresses (the `kubernetes` Service first) DNATed to their
 * endpoints. It leaves the kernel's conntrack settings and route_localnet alone, and opens
 * NodePorts only on the node's bridge address.
 */
export async function startKubeProxy(binDir: string, kubeconfig: string, node: NodeHost = SINGLE_NODE): Promise<{ process: ManagedProcess; healthzPort: number }> {
  const [healthzPort, metricsPort] = await Promise.all([freePort(), freePort()]);
  const config = {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    hostnameOverride: node.name,
    mode: 'iptables',
    clusterCIDR: node.podRange,
    bindAddress: node.address,
    healthzBindAddress: `${node.healthzAddress}:${healthzPort}`,
    metricsBindAddress: `${node.healthzAddress}:${metricsPort}`,
    nodePortAddresses: [`${node.address}/32`],
    iptables: { localhostNodePorts: false },
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  };
  const configFile = path.join(node.root, 'kube-proxy.yaml');
  await writeFile(configFile, stringify(config));
  const [command = path.join(binDir, 'kube-proxy'), ...prefix] = [...node.enter, path.join(binDir, 'kube-proxy')];
  const process = new ManagedProcess('kube-proxy', node.root, command, () => [...prefix, `--config=${configFile}`, '--v=1']);
  await process.start();
  return { process, healthzPort };
}
