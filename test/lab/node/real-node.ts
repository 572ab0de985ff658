import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { execa } from 'execa';
import { ControlPlane, type ControlPlaneInfo } from '../controlplane/control-plane.ts';
import { writeKubeconfig } from '../controlplane/kubeconfig.ts';
import { issueCertificate } from '../controlplane/pki.ts';
import type { ManagedProcess } from '../controlplane/process.ts';
import { waitFor } from '../support/wait.ts';
import { deployClusterDns } from './cluster-dns.ts';
import { startContainerd } from './containerd.ts';
import { type BuiltImages } from './images.ts';
import { startKubeProxy } from './kube-proxy.ts';
import { startKubelet } from './kubelet.ts';
import { layoutEnv, NODE_LAYOUT } from './layout.ts';
import { backupKubeletSysctls } from './sysctls.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** What a test of the real node gets (through vitest's provide/inject). */
export interface RealNodeInfo {
  controlPlane: ControlPlaneInfo;
  nodeName: string;
  images: BuiltImages;
  containerdSocket: string;
  kubeletPort: number;
  /** Milliseconds from the first process started to the Node being Ready. */
  startupMs: number;
}

/** kube-controller-manager's controllers a node with DaemonSets, Deployments, Jobs and Services needs. */
const CONTROLLERS = [
  'garbage-collector-controller',
  'daemonset-controller',
  'deployment-controller',
  'replicaset-controller',
  'job-controller',
  'endpoints-controller',
  'endpointslice-controller',
  'serviceaccount-controller',
  'root-ca-certificate-publisher-controller',
  'node-lifecycle-controller',
  'pod-garbage-collector-controller',
  'ttl-after-finished-controller',
  // A namespace the tests delete (KubeVirt's VMs) goes only through this controller.
  'namespace-controller',
  // PodDisruptionBudgets' status (disruptionsAllowed): without it every eviction of a pod a PDB
  // covers is refused, and a kubectl drain of a node that holds one (the aggregator's) never ends.
  'disruption-controller',
];

/**
 * The control plane a cluster of real kubelets needs (the real node's, the three-node cluster's):
 * on `address`, with the controllers workloads need, the aggregation layer for KubeVirt's virt-api,
 * the audit log keeping what each write to a Node and its report set (the node faults read it,
 * test/lab/support/audit-flaps.ts), and the scheduler and controller manager ready.
 */
export async function startWorkloadControlPlane(binDir: string, address: string, serviceCidr: string): Promise<ControlPlane> {
  const plane = await ControlPlane.start(binDir, {
    address,
    controllers: CONTROLLERS,
    serviceCidr,
    aggregation: true,
    auditRequestBodies: [
      { group: '', resources: ['nodes', 'nodes/status'] },
      { group: 'virtgate.io', resources: ['nodevalidations', 'nodevalidations/status'] },
    ],
  });
  try {
    await Promise.all([plane.startScheduler(), plane.startControllerManager()]);
  } catch (error) {
    await plane.stop();
    throw error;
  }
  return plane;
}

export async function runCleanup(): Promise<void> {
  await execa('bash', [path.join(HERE, 'cleanup.sh')], { env: layoutEnv(), timeout: 120_000, reject: false });
}

/**
 * A real single-node Kubernetes node on this machine: its network (host-network.sh), the test
 * control plane on the node's address with the controllers workloads need, containerd + runc +
 * CNI, the kubelet, kube-proxy and cluster DNS (CoreDNS, cluster-dns.ts).
 */
export class RealNode {
  readonly info: RealNodeInfo;
  private readonly plane: ControlPlane;
  private readonly processes: ManagedProcess[];
  private readonly kubelet: ManagedProcess;

  private constructor(info: RealNodeInfo, plane: ControlPlane, processes: ManagedProcess[], kubelet: ManagedProcess) {
    this.info = info;
    this.plane = plane;
    this.processes = processes;
    this.kubelet = kubelet;
  }

  /** SIGKILL to the kubelet only, as a crash: the pods' containers keep running under their shims. */
  async killKubelet(): Promise<void> {
    await this.kubelet.kill();
  }

  /** Starts the kubelet again exactly as at first (same binary, flags, config and certificates). */
  async startKubelet(): Promise<void> {
    await this.kubelet.start();
  }

  /**
   * @param extraArchives further image archives to import (KubeVirt's images and the guests'
   *   containerDisks): the node pulls nothing.
   */
  static async start(binDir: string, images: BuiltImages, extraArchives: string[] = []): Promise<RealNode> {
    const started = Date.now();
    await runCleanup();
    await mkdir(NODE_LAYOUT.root, { recursive: true });
    startCleanupWatchdog(path.join(HERE, 'cleanup.sh'), layoutEnv());
    await backupKubeletSysctls(NODE_LAYOUT.sysctlBackup);
    await execa('bash', [path.join(HERE, 'host-network.sh')], { env: layoutEnv() });
    await execa('bash', [path.join(HERE, 'host-paths.sh')], { env: layoutEnv() });

    let plane: ControlPlane | undefined;
    const processes: ManagedProcess[] = [];
    try {
      plane = await startWorkloadControlPlane(binDir, NODE_LAYOUT.gateway, NODE_LAYOUT.serviceRange);
      const { server, caFile } = plane.info;
      const pkiDir = path.join(plane.info.dir, 'pki');
      const [nodeCert, nodeKey] = await issueCertificate(pkiDir, 'kubelet-client', `/O=system:nodes/CN=system:node:${NODE_LAYOUT.nodeName}`);
      const [servingCert, servingKey] = await issueCertificate(pkiDir, 'kubelet-serving', `/CN=${NODE_LAYOUT.nodeName}`, [NODE_LAYOUT.gateway]);
      const [proxyCert, proxyKey] = await issueCertificate(pkiDir, 'kube-proxy', '/CN=system:kube-proxy');
      const kubeletKubeconfig = await writeKubeconfig(path.join(NODE_LAYOUT.root, 'kubelet.kubeconfig'), server, caFile, { clientCertificate: nodeCert, clientKey: nodeKey });
      const proxyKubeconfig = await writeKubeconfig(path.join(NODE_LAYOUT.root, 'kube-proxy.kubeconfig'), server, caFile, { clientCertificate: proxyCert, clientKey: proxyKey });

      let t = Date.now();
      const containerd = await startContainerd(images.pause.ref);
      processes.push(containerd.process);
      // One at a time: several large archives at once only compete for the two cores and the disk.
      for (const archive of [images.pause.archive, images.coredns.archive, images.agent.archive, images.aggregator.archive, images.canaryDisk.archive, ...extraArchives]) {
        await containerd.ctr(['images', 'import', archive]);
      }
      log(`containerd up, images imported in ${Date.now() - t} ms`);
      t = Date.now();
      const kubelet = await startKubelet(binDir, containerd.socket, { kubeconfig: kubeletKubeconfig, caFile, servingCert, servingKey });
      processes.push(kubelet.process);
      const proxy = await startKubeProxy(binDir, proxyKubeconfig);
      processes.push(proxy.process);

      const admin = new KubeConfig();
      admin.loadFromFile(plane.info.adminKubeconfig);
      const core = admin.makeApiClient(CoreV1Api);
      await waitFor(
        `Node ${NODE_LAYOUT.nodeName} to be Ready (logs: ${NODE_LAYOUT.root}/logs)`,
        async () => {
          assertRunning(processes);
          const node = await core.readNode({ name: NODE_LAYOUT.nodeName });
          return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? true : undefined;
        },
        180_000,
        500,
      );
      log(`kubelet registered the node Ready in ${Date.now() - t} ms`);
      await waitFor('kube-proxy to be healthy', async () => {
        assertRunning(processes);
        const res = await fetch(`http://127.0.0.1:${proxy.healthzPort}/healthz`);
        return res.ok ? true : undefined;
      }, 60_000, 500);
      t = Date.now();
      await deployClusterDns(admin, images.coredns.ref);
      log(`CoreDNS Ready at ${NODE_LAYOUT.clusterDns} in ${Date.now() - t} ms`);
      const info: RealNodeInfo = {
        controlPlane: plane.info,
        nodeName: NODE_LAYOUT.nodeName,
        images,
        containerdSocket: containerd.socket,
        kubeletPort: kubelet.port,
        startupMs: Date.now() - started,
      };
      return new RealNode(info, plane, processes, kubelet.process);
    } catch (error) {
      await stopAll(processes, plane);
      throw error;
    }
  }

  /** Stops every process and removes everything the node made. Safe to call twice. */
  async stop(): Promise<void> {
    await stopAll(this.processes, this.plane);
  }
}

function log(message: string): void {
  process.stderr.write(`[node] ${message}\n`);
}

export function assertRunning(processes: ManagedProcess[]): void {
  const dead = processes.find((p) => !p.running);
  if (dead) throw new Error(`${dead.name} exited; see ${dead.logFile}`);
}

async function stopAll(processes: ManagedProcess[], plane: ControlPlane | undefined): Promise<void> {
  // The kubelet first, so it restarts nothing while the rest goes; cleanup.sh then kills the
  // containers (shims outlive containerd), unmounts, and removes the network.
  for (const p of [...processes].reverse()) await p.stop(10_000).catch(() => undefined);
  if (plane) await plane.stop().catch(() => undefined);
  if (!process.env.VIRTGATE_KEEP_NODE) await runCleanup();
}

/** If the test runner dies without its teardown, `script` still runs within a second or two. */
export function startCleanupWatchdog(script: string, env: Record<string, string>): void {
  const loop = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; bash "${script}"`;
  const watchdog = spawn('bash', ['-c', loop], { detached: true, stdio: 'ignore', env: { ...process.env, ...env } });
  watchdog.unref();
}
