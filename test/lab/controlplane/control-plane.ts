import { request } from 'node:https';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { writeKubeconfig } from './kubeconfig.ts';
import { createPki, issueCertificate, type Pki } from './pki.ts';
import { freePort } from './ports.ts';
import { ManagedProcess, startWatchdog } from './process.ts';

export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

// Metadata for every request, once (at ResponseComplete; watches also at ResponseStarted):
// enough to count each identity's reads and writes without logging bodies.
const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
  - level: Metadata
`;

/** A group's resources whose write requests the audit log records with their bodies. */
export interface AuditedBodies {
  group: string;
  resources: string[];
}

/**
 * The policy: write requests to `bodies` at level Request (the patch or object as sent, so a
 * test can read what each write set), everything else at Metadata as above.
 */
export function auditPolicy(bodies: readonly AuditedBodies[] = []): string {
  if (bodies.length === 0) return AUDIT_POLICY;
  const resources = bodies.map((b) => `      - group: "${b.group}"\n        resources: [${b.resources.map((r) => `"${r}"`).join(', ')}]`).join('\n');
  return `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
  - level: Request
    verbs: ["create", "update", "patch", "delete", "deletecollection"]
    resources:
${resources}
  - level: Metadata
`;
}

export interface ControlPlaneOptions {
  /**
   * The address the API server binds to and advertises (the `kubernetes` Service's endpoint).
   * Loopback by default; the real node (test/node) uses its bridge address, which pods reach.
   */
  address?: string;
  /** kube-controller-manager's --controllers (default: the garbage collector only). */
  controllers?: string[];
  /** kube-apiserver's --service-cluster-ip-range. */
  serviceCidr?: string;
  /** Writes the audit log records with their request bodies (default: none, metadata only). */
  auditRequestBodies?: AuditedBodies[];
  /**
   * The aggregation layer (front-proxy client certificate and request-header authentication), for
   * extension API servers such as KubeVirt's virt-api (subresources.kubevirt.io). Off by default.
   */
  aggregation?: boolean;
}

export interface ControlPlaneInfo {
  dir: string;
  binDir: string;
  server: string;
  caFile: string;
  adminKubeconfig: string;
  auditLog: string;
}

/**
 * A real etcd + kube-apiserver (RBAC, Node authorizer, default admission plugins including
 * ValidatingAdmissionPolicy, NodeRestriction, service-account signing, audit log) on loopback,
 * with kube-scheduler and kube-controller-manager started on request.
 */
interface Components {
  etcd: ManagedProcess;
  apiServer: ManagedProcess;
  scheduler: ManagedProcess;
  controllerManager: ManagedProcess;
  /**
   * Where each component says it is ready, on its secure port (self-signed serving certificate):
   * the scheduler's /readyz, the controller manager's /healthz (it serves no /readyz: 404).
   */
  schedulerReadyz: string;
  controllerManagerReadyz: string;
}

export class ControlPlane {
  readonly info: ControlPlaneInfo;
  private readonly pki: Pki;
  private readonly etcd: ManagedProcess;
  private readonly apiServer: ManagedProcess;
  private readonly scheduler: ManagedProcess;
  private readonly controllerManager: ManagedProcess;
  private readonly schedulerReadyz: string;
  private readonly controllerManagerReadyz: string;
  private readonly watchdog: ChildProcess;

  private constructor(info: ControlPlaneInfo, pki: Pki, components: Components, watchdog: ChildProcess) {
    this.info = info;
    this.pki = pki;
    this.etcd = components.etcd;
    this.apiServer = components.apiServer;
    this.scheduler = components.scheduler;
    this.controllerManager = components.controllerManager;
    this.schedulerReadyz = components.schedulerReadyz;
    this.controllerManagerReadyz = components.controllerManagerReadyz;
    this.watchdog = watchdog;
  }

  static async start(binDir: string, options: ControlPlaneOptions = {}): Promise<ControlPlane> {
    const address = options.address ?? '127.0.0.1';
    const serviceCidr = options.serviceCidr ?? '10.96.0.0/16';
    const dir = await mkdtemp(path.join(os.tmpdir(), 'virtgate-cp-'));
    const watchdog = startWatchdog(dir);
    const pkiDir = path.join(dir, 'pki');
    await mkdir(pkiDir);
    // The serving cert also names the `kubernetes` Service's address (the range's first), which
    // in-cluster clients dial.
    const pki = await createPki(pkiDir, [address, firstAddress(serviceCidr)]);
    // The API server's identity towards kubelets (logs, exec, /stats through nodes/proxy).
    const [kubeletClientCert, kubeletClientKey] = await issueCertificate(pkiDir, 'apiserver-kubelet-client', '/O=system:masters/CN=kube-apiserver-kubelet-client');
    // The API server's identity towards extension API servers; they trust it by the request-header CA.
    const aggregationFlags = options.aggregation
      ? await issueCertificate(pkiDir, 'front-proxy-client', '/CN=front-proxy-client').then(([cert, key]) => [
        `--proxy-client-cert-file=${cert}`,
        `--proxy-client-key-file=${key}`,
        `--requestheader-client-ca-file=${pki.caCert}`,
        '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-username-headers=X-Remote-User',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
        // To the extension server's pod address: no Service address is needed from the host.
        '--enable-aggregator-routing=true',
      ])
      : [];
    const [etcdPort, etcdPeerPort, apiPort, schedulerPort, kcmPort] = await Promise.all([
      freePort(), freePort(), freePort(), freePort(), freePort(),
    ]);
    const server = `https://${address}:${apiPort}`;
    const auditPolicyFile = path.join(dir, 'audit-policy.yaml');
    await writeFile(auditPolicyFile, auditPolicy(options.auditRequestBodies));
    const auditLog = path.join(dir, 'audit.log');
    const adminKubeconfig = await writeKubeconfig(path.join(dir, 'admin.kubeconfig'), server, pki.caCert, {
      clientCertificate: pki.adminCert,
      clientKey: pki.adminKey,
    });

    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const etcd = new ManagedProcess('etcd', dir, path.join(binDir, 'etcd'), () => [
      '--name=virtgate-test',
      `--data-dir=${path.join(dir, 'etcd-data')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-cluster=virtgate-test=http://127.0.0.1:${etcdPeerPort}`,
      // Test data is thrown away; fsync only costs time.
      '--unsafe-no-fsync',
      '--log-level=warn',
    ]);
    const apiServer = new ManagedProcess('kube-apiserver', dir, path.join(binDir, 'kube-apiserver'), () => [
      `--etcd-servers=${etcdUrl}`,
      `--bind-address=${address}`,
      `--advertise-address=${address}`,
      `--secure-port=${apiPort}`,
      `--kubelet-client-certificate=${kubeletClientCert}`,
      `--kubelet-client-key=${kubeletClientKey}`,
      `--kubelet-certificate-authority=${pki.caCert}`,
      // A node's address, never its name: nothing here resolves node names.
      '--kubelet-preferred-address-types=InternalIP',
      `--tls-cert-file=${pki.serverCert}`,
      `--tls-private-key-file=${pki.serverKey}`,
      `--client-ca-file=${pki.caCert}`,
      '--authorization-mode=Node,RBAC',
      '--enable-admission-plugins=NodeRestriction,ValidatingAdmissionPolicy',
      `--service-account-issuer=${SERVICE_ACCOUNT_ISSUER}`,
      `--service-account-key-file=${pki.serviceAccountPub}`,
      `--service-account-signing-key-file=${pki.serviceAccountKey}`,
      `--service-cluster-ip-range=${serviceCidr}`,
      '--allow-privileged=true',
      `--audit-policy-file=${auditPolicyFile}`,
      `--audit-log-path=${auditLog}`,
      '--audit-log-format=json',
      '--audit-log-mode=blocking',
      '--audit-log-maxsize=0',
      '--profiling=false',
      ...aggregationFlags,
      '--v=0',
    ]);
    const scheduler = new ManagedProcess('kube-scheduler', dir, path.join(binDir, 'kube-scheduler'), () => [
      `--kubeconfig=${adminKubeconfig}`,
      `--authentication-kubeconfig=${adminKubeconfig}`,
      `--authorization-kubeconfig=${adminKubeconfig}`,
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${schedulerPort}`,
    ]);
    const controllerManager = new ManagedProcess('kube-controller-manager', dir, path.join(binDir, 'kube-controller-manager'), () => [
      `--kubeconfig=${adminKubeconfig}`,
      `--authentication-kubeconfig=${adminKubeconfig}`,
      `--authorization-kubeconfig=${adminKubeconfig}`,
      `--controllers=${(options.controllers ?? ['garbage-collector-controller']).join(',')}`,
      // Published into every namespace as kube-root-ca.crt, which projected tokens mount.
      `--root-ca-file=${pki.caCert}`,
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${kcmPort}`,
    ]);

    const plane = new ControlPlane(
      { dir, binDir, server, caFile: pki.caCert, adminKubeconfig, auditLog },
      pki,
      {
        etcd,
        apiServer,
        scheduler,
        controllerManager,
        schedulerReadyz: `https://127.0.0.1:${schedulerPort}/readyz`,
        controllerManagerReadyz: `https://127.0.0.1:${kcmPort}/healthz`,
      },
      watchdog,
    );
    try {
      await etcd.start();
      await plane.startApiServer();
    } catch (error) {
      await plane.stop();
      throw error;
    }
    return plane;
  }

  async startApiServer(timeoutMs = 90_000): Promise<void> {
    await this.apiServer.start();
    await this.waitReady(timeoutMs);
  }

  // Started means ready: a caller that creates pods right after must meet a scheduler whose
  // informers have synced (its /readyz includes sched-handler-sync), not a process still starting.
  async startScheduler(timeoutMs = 60_000): Promise<void> {
    await this.scheduler.start();
    await this.waitComponentReady(this.scheduler, this.schedulerReadyz, timeoutMs);
  }

  /** Graceful stop, like a control-plane upgrade. */
  async stopApiServer(): Promise<void> {
    await this.apiServer.stop();
  }

  /** SIGKILL, like a crash. */
  async killApiServer(): Promise<void> {
    await this.apiServer.kill();
  }

  async restartEtcd(): Promise<void> {
    await this.etcd.stop();
    await this.etcd.start();
  }

  async stopScheduler(): Promise<void> {
    await this.scheduler.stop();
  }

  async startControllerManager(timeoutMs = 60_000): Promise<void> {
    await this.controllerManager.start();
    await this.waitComponentReady(this.controllerManager, this.controllerManagerReadyz, timeoutMs);
  }

  async stopControllerManager(): Promise<void> {
    await this.controllerManager.stop();
  }

  get status(): Record<string, boolean> {
    return {
      etcd: this.etcd.running,
      apiServer: this.apiServer.running,
      scheduler: this.scheduler.running,
      controllerManager: this.controllerManager.running,
    };
  }

  /** Polls the API server's /readyz with the admin certificate until it answers 200. */
  async waitReady(timeoutMs: number): Promise<void> {
    await this.waitComponentReady(this.apiServer, `${this.info.server}/readyz`, timeoutMs);
  }

  private async waitComponentReady(component: ManagedProcess, url: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    while (Date.now() < deadline) {
      if (!component.running) {
        const log = await readFile(component.logFile, 'utf8').catch(() => '');
        throw new Error(`${component.name} exited during start-up. Last log lines:\n${log.split('\n').slice(-15).join('\n')}`);
      }
      try {
        const status = await this.get(url);
        if (status === 200) return;
        last = `HTTP ${status}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`${component.name} was not ready after ${timeoutMs} ms (${last}); see ${component.logFile}`);
  }

  /** A GET with the admin certificate. The API server's certificate is checked against the CA;
   * the scheduler's and controller manager's are self-signed, so on loopback they are not. */
  private async get(url: string): Promise<number> {
    const [cert, key, ca] = await Promise.all([readFile(this.pki.adminCert), readFile(this.pki.adminKey), readFile(this.pki.caCert)]);
    const verify = url.startsWith(this.info.server);
    return new Promise((resolve, reject) => {
      const req = request(url, { cert, key, ca, rejectUnauthorized: verify, timeout: 2000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end();
    });
  }

  /** Stops everything and removes the temp dir. Safe to call twice. */
  async stop(): Promise<void> {
    for (const component of [this.controllerManager, this.scheduler, this.apiServer, this.etcd]) {
      await component.stop().catch(() => undefined);
    }
    this.watchdog.kill('SIGKILL');
    if (!process.env.VIRTGATE_KEEP_CONTROLPLANE) await rm(this.info.dir, { recursive: true, force: true });
  }
}

/** The first host address of an IPv4 CIDR, e.g. 10.96.0.1 for 10.96.0.0/16. */
function firstAddress(cidr: string): string {
  const [base = ''] = cidr.split('/');
  const octets = base.split('.').map(Number);
  octets[3] = (octets[3] ?? 0) + 1;
  return octets.join('.');
}
