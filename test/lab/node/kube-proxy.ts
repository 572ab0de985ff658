import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { ManagedProcess } from '../controlplane/process.ts';
import { freePort } from '../controlplane/ports.ts';
import { NODE_LAYOUT } from './layout.ts';

/**
 * kube-proxy in iptables mode: Service addresses (the `kubernetes` Service first) DNATed to their
 * endpoints. It leaves the kernel's conntrack settings and route_localnet alone, and opens
 * NodePorts only on the node's bridge address.
 */
export async function startKubeProxy(binDir: string, kubeconfig: string): Promise<{ process: ManagedProcess; healthzPort: number }> {
  const [healthzPort, metricsPort] = await Promise.all([freePort(), freePort()]);
  const config = {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    hostnameOverride: NODE_LAYOUT.nodeName,
    mode: 'iptables',
    clusterCIDR: NODE_LAYOUT.podRange,
    bindAddress: NODE_LAYOUT.gateway,
    healthzBindAddress: `127.0.0.1:${healthzPort}`,
    metricsBindAddress: `127.0.0.1:${metricsPort}`,
    nodePortAddresses: [`${NODE_LAYOUT.gateway}/32`],
    iptables: { localhostNodePorts: false },
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  };
  const configFile = path.join(NODE_LAYOUT.root, 'kube-proxy.yaml');
  await writeFile(configFile, stringify(config));
  const process = new ManagedProcess('kube-proxy', NODE_LAYOUT.root, path.join(binDir, 'kube-proxy'), () => [`--config=${configFile}`, '--v=1']);
  await process.start();
  return { process, healthzPort };
}
