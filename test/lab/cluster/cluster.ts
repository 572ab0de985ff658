import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { execa } from 'execa';
import type { ControlPlane, ControlPlaneInfo } from '../controlplane/control-plane.ts';
import { writeKubeconfig } from '../controlplane/kubeconfig.ts';
import { issueCertificate } from '../controlplane/pki.ts';
import type { ManagedProcess } from '../controlplane/process.ts';
import { waitFor } from '../support/wait.ts';
import { deployClusterDns } from '../node/cluster-dns.ts';
import { addDigestReferences, startContainerd } from '../node/containerd.ts';
import { type BuiltImages } from '../node/images.ts';
import { startKubeProxy } from '../node/kube-proxy.ts';
import { startKubelet } from '../node/kubelet.ts';
import type { NodeHost } from '../node/layout.ts';
import { assertRunning, startCleanupWatchdog, startWorkloadControlPlane } from '../node/real-node.ts';
import { backupKubeletSysctls } from '../node/sysctls.ts';
import { cgroupRoot, CLUSTER_LAYOUT, type ClusterNodeLayout, clusterEnv, enterNode, nodeRoot } from './layout.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** One node as a test sees it. */
export interface ClusterNodeInfo {
  name: string;
  address: string;
  containerdSocket: string;
  /** Devices its mount namespace hides (the node's host does not have them). */
  hiddenDevices: string[];
}

/** What a test of the cluster gets (through vitest's provide/inject). */
export interface ClusterInfo {
  controlPlane: ControlPlaneInfo;
  nodes: ClusterNodeInfo[];
  images: BuiltImages;
  /** Milliseconds from the first step to three Ready nodes. */
  startupMs: number;
  /** Milliseconds from three Ready nodes to CoreDNS Ready. */
  dnsMs: number;
}

/** A node's programs, as cluster.ts runs them. */
function nodeHost(node: ClusterNodeLayout): NodeHost {
  const root = nodeRoot(node);
  return {
    name: node.name,
    root,
    address: node.address,
    healthzAddress: node.address,
    clusterDns: CLUSTER_LAYOUT.clusterDns,
    podRange: CLUSTER_LAYOUT.podRange,
    enter: enterNode(node),
    pods: { bridge: 'cni0', subnet: node.podSubnet, gateway: node.podGateway },
    cgroupRoot: cgroupRoot(node),
    // Each node has its network namespace to itself: the kubelet's usual port.
    kubeletPort: 10250,
    registryHostsDir: path.join(root, 'containerd', 'certs.d'),
  };
}

export async function runClusterCleanup(): Promise<void> {
  await execa('bash', [path.join(HERE, 'cleanup.sh')], { env: clusterEnv(), timeout: 120_000, reject: false });
}

/**
 * Three real kubelet nodes on this machine, one control plane: each node in its own network and
 * mount namespace (network.sh, node-hosts.sh) with its own containerd, kubelet and kube-proxy;
 * a routed pod network between them; CoreDNS for the cluster.
 */
export class RealCluster {
  readonly info: ClusterInfo;
  private readonly plane: ControlPlane;
  private readonly processes: ManagedProcess[];

  private constructor(info: ClusterInfo, plane: ControlPlane, processes: ManagedProcess[]) {
    this.info = info;
    this.plane = plane;
    this.processes = processes;
  }

  /** @param extraArchives further image archives each node imports: the nodes pull nothing. */
  static async start(binDir: string, images: BuiltImages, extraArchives: string[] = []): Promise<RealCluster> {
    const started = Date.now();
    await runClusterCleanup();
    await mkdir(CLUSTER_LAYOUT.root, { recursive: true });
    startCleanupWatchdog(path.join(HERE, 'cleanup.sh'), clusterEnv());
    await backupKubeletSysctls(CLUSTER_LAYOUT.sysctlBackup);
    await execa('bash', [path.join(HERE, 'network.sh')], { env: clusterEnv() });
    await execa('bash', [path.join(HERE, 'node-hosts.sh')], { env: clusterEnv() });

    let plane: ControlPlane | undefined;
    const processes: ManagedProcess[] = [];
    try {
      plane = await startWorkloadControlPlane(binDir, CLUSTER_LAYOUT.controlPlaneAddress, CLUSTER_LAYOUT.serviceRange);
      const { server, caFile } = plane.info;
      const pkiDir = path.join(plane.info.dir, 'pki');
      const [proxyCert, proxyKey] = await issueCertificate(pkiDir, 'kube-proxy', '/CN=system:kube-proxy');
      const proxyKubeconfig = await writeKubeconfig(path.join(CLUSTER_LAYOUT.root, 'kube-proxy.kubeconfig'), server, caFile, { clientCertificate: proxyCert, clientKey: proxyKey });
      const archives = [images.pause.archive, images.coredns.archive, images.agent.archive, images.aggregator.archive, ...extraArchives];

      const startNode = async (layout: ClusterNodeLayout): Promise<ClusterNodeInfo> => {
        const host = nodeHost(layout);
        await mkdir(host.root, { recursive: true });
        const [nodeCert, nodeKey] = await issueCertificate(pkiDir, `kubelet-client-${layout.name}`, `/O=system:nodes/CN=system:node:${layout.name}`);
        const [servingCert, servingKey] = await issueCertificate(pkiDir, `kubelet-serving-${layout.name}`, `/CN=${layout.name}`, [layout.address]);
        const kubeconfig = await writeKubeconfig(path.join(host.root, 'kubelet.kubeconfig'), server, caFile, { clientCertificate: nodeCert, clientKey: nodeKey });
        const containerd = await startContainerd(images.pause.ref, host);
        processes.push(containerd.process);
        for (const archive of archives) await containerd.ctr(['images', 'import', archive]);
        await addDigestReferences(containerd);
        const kubelet = await startKubelet(binDir, containerd.socket, { kubeconfig, caFile, servingCert, servingKey }, host);
        processes.push(kubelet.process);
        const proxy = await startKubeProxy(binDir, proxyKubeconfig, host);
        processes.push(proxy.process);
        await waitFor(`kube-proxy of ${layout.name} to be healthy`, async () => {
          assertRunning(processes);
          const res = await fetch(`http://${layout.address}:${proxy.healthzPort}/healthz`).catch(() => undefined);
          return res?.ok ? true : undefined;
        }, 60_000, 250);
        return { name: layout.name, address: layout.address, containerdSocket: containerd.socket, hiddenDevices: [...layout.hiddenDevices] };
      };
      // One node at a time: image imports and three starting kubelets only compete for the two cores.
      const nodes: ClusterNodeInfo[] = [];
      for (const layout of CLUSTER_LAYOUT.nodes) {
        const t = Date.now();
        nodes.push(await startNode(layout));
        log(`${layout.name}: containerd, images, kubelet, kube-proxy in ${Date.now() - t} ms`);
      }

      const admin = new KubeConfig();
      admin.loadFromFile(plane.info.adminKubeconfig);
      const core = admin.makeApiClient(CoreV1Api);
      await waitFor(`three Ready nodes (logs: ${CLUSTER_LAYOUT.root}/nodes/*/logs)`, async () => {
        assertRunning(processes);
        const list = await core.listNode();
        const ready = list.items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
        return ready.length === CLUSTER_LAYOUT.nodes.length ? true : undefined;
      }, 180_000, 250);
      const startupMs = Date.now() - started;
      log(`three nodes Ready in ${startupMs} ms`);
      const t = Date.now();
      await deployClusterDns(admin, images.coredns.ref, CLUSTER_LAYOUT.clusterDns, `${CLUSTER_LAYOUT.namespacePrefix}kube-system`);
      const dnsMs = Date.now() - t;
      log(`CoreDNS Ready at ${CLUSTER_LAYOUT.clusterDns} in ${dnsMs} ms`);
      return new RealCluster({ controlPlane: plane.info, nodes, images, startupMs, dnsMs }, plane, processes);
    } catch (error) {
      await stopAll(processes, plane);
      throw error;
    }
  }

  /** Stops every process and removes everything the cluster made. Safe to call twice. */
  async stop(): Promise<void> {
    await stopAll(this.processes, this.plane);
  }
}

/**
 * Removes `device` (e.g. /dev/net/tun) from the node's own /dev, as a driver going away would:
 * every process on the node, the running agent pod included, finds it gone at once. A test (root,
 * like the suite) calls it directly: the node's namespaces are files on this machine.
 */
export async function hideDevice(nodeName: string, device: string): Promise<void> {
  await inNode(nodeName, ['rm', '-f', '--', device]);
}

/** Puts `device` back into the node's /dev with the numbers and mode the host's own has. */
export async function restoreDevice(nodeName: string, device: string): Promise<void> {
  const { stdout } = await execa('stat', ['-c', '%t %T %a', device]);
  const [major = '', minor = '', mode = ''] = stdout.trim().split(' ');
  await inNode(nodeName, ['mknod', '-m', mode, device, 'c', String(Number.parseInt(major, 16)), String(Number.parseInt(minor, 16))]);
}

/** Runs a command inside the node's namespaces; its stdout. */
export async function inNode(nodeName: string, command: string[]): Promise<string> {
  const [nsenter = 'nsenter', ...prefix] = enterNode(layoutOf(nodeName));
  return (await execa(nsenter, [...prefix, ...command], { timeout: 60_000 })).stdout;
}

function layoutOf(nodeName: string): ClusterNodeLayout {
  const layout = CLUSTER_LAYOUT.nodes.find((n) => n.name === nodeName);
  if (!layout) throw new Error(`no node ${nodeName} in the cluster (${CLUSTER_LAYOUT.nodes.map((n) => n.name).join(', ')})`);
  return layout;
}

function log(message: string): void {
  process.stderr.write(`[cluster] ${message}\n`);
}

async function stopAll(processes: ManagedProcess[], plane: ControlPlane | undefined): Promise<void> {
  // Kubelets first (they were pushed after their containerd), so none restarts a container while
  // the rest goes; cleanup.sh then kills what is left and removes the namespaces and network.
  for (const p of [...processes].reverse()) await p.stop(10_000).catch(() => undefined);
  if (plane) await plane.stop().catch(() => undefined);
  if (!process.env.VIRTGATE_KEEP_CLUSTER) await runClusterCleanup();
}
