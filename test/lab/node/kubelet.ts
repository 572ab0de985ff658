import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { ManagedProcess } from '../controlplane/process.ts';
import { freePort } from '../controlplane/ports.ts';
import { KUBELET_ROOT, type NodeHost, SINGLE_NODE } from './layout.ts';

export interface KubeletFiles {
  kubeconfig: string;
  caFile: string;
  servingCert: string;
  servingKey: string;
}

export interface Kubelet {
  process: ManagedProcess;
  port: number;
  healthzPort: number;
}

/**
 * The kubelet of the real node, registering as `system:node:<name>` with a client certificate
 * from the test PKI (so the Node authorizer and NodeRestriction apply to it), on a cgroup v1
 * host without systemd.
 */
export async function startKubelet(binDir: string, containerdSocket: string, files: KubeletFiles, node: NodeHost = SINGLE_NODE): Promise<Kubelet> {
  // A bind mount of a directory under the node's root (host-paths.sh, or the cluster node's mount
  // namespace), at the path KubeVirt expects.
  const dir = KUBELET_ROOT;
  if (node.enter.length === 0) await mkdir(dir, { recursive: true });
  const [port, healthzPort] = await Promise.all([node.kubeletPort || freePort(), freePort()]);
  const config = {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    // This machine mounts cgroup v1 controllers (hybrid); the kubelet refuses v1 unless told.
    failCgroupV1: false,
    // No systemd as PID 1: cgroups are managed through the filesystem.
    cgroupDriver: 'cgroupfs',
    containerRuntimeEndpoint: `unix://${containerdSocket}`,
    ...(node.cgroupRoot ? { cgroupRoot: node.cgroupRoot } : {}),
    address: node.address,
    port,
    readOnlyPort: 0,
    healthzBindAddress: node.healthzAddress,
    healthzPort,
    tlsCertFile: files.servingCert,
    tlsPrivateKeyFile: files.servingKey,
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: files.caFile } },
    authorization: { mode: 'Webhook' },
    // CoreDNS's Service (cluster-dns.ts): it answers cluster.local and refuses every other name itself.
    clusterDNS: [node.clusterDns],
    clusterDomain: 'cluster.local',
    resolvConf: '',
    rotateCertificates: false,
    serverTLSBootstrap: false,
    // The chart's pods, KubeVirt's (operator x2, virt-api, virt-controller, virt-handler, install job) and VMs.
    maxPods: 50,
    // The images are imported, never pulled: garbage collection must not remove them, and a
    // busy shared disk must not evict the suite's pods.
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    evictionHard: { 'memory.available': '50Mi', 'nodefs.available': '1%', 'imagefs.available': '1%' },
    failSwapOn: false,
    volumePluginDir: path.join(dir, 'volume-plugins'),
    staticPodPath: '',
    logging: { format: 'text' },
  };
  const configFile = path.join(node.root, 'kubelet.yaml');
  await writeFile(configFile, stringify(config));
  const [command = path.join(binDir, 'kubelet'), ...prefix] = [...node.enter, path.join(binDir, 'kubelet')];
  const process = new ManagedProcess('kubelet', node.root, command, () => [
    ...prefix,
    `--config=${configFile}`,
    `--kubeconfig=${files.kubeconfig}`,
    `--root-dir=${dir}`,
    `--cert-dir=${path.join(dir, 'pki')}`,
    `--hostname-override=${node.name}`,
    `--node-ip=${node.address}`,
    '--v=1',
  ]);
  await process.start();
  return { process, port, healthzPort };
}
