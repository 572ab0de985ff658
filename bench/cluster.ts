import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { locateBinaries } from '../test/lab/controlplane/binaries.ts';
import { ControlPlane } from '../test/lab/controlplane/control-plane.ts';
import { createNode } from '../test/lab/controlplane/identities.ts';
import { AuditLog } from '../test/lab/controlplane/audit.ts';
import { buildHost, type BuiltHost, type HostProfile } from '../test/lab/hosts/build-host.ts';
import { agentIdentity } from '../test/lab/support/agent-identity.ts';
import { installCrd } from '../test/lab/support/crds.ts';

export interface BenchNode {
  name: string;
  host: BuiltHost;
  kubeconfig: string;
}

/** The real control plane the benchmarks measure against, with helpers to add agent nodes. */
export interface BenchCluster {
  plane: ControlPlane;
  admin: KubeConfig;
  audit: AuditLog;
  node(name: string, profile: HostProfile): Promise<BenchNode>;
  stop(): Promise<void>;
}

export async function startBenchCluster(): Promise<BenchCluster> {
  const plane = await ControlPlane.start(await locateBinaries());
  const admin = new KubeConfig();
  admin.loadFromFile(plane.info.adminKubeconfig);
  await installCrd(admin);
  return {
    plane,
    admin,
    audit: new AuditLog(plane.info.auditLog),
    async node(name, profile) {
      const host = await buildHost(await mkdtemp(path.join(os.tmpdir(), `${name}-`)), profile);
      await createNode(admin, name);
      const identity = await agentIdentity(admin, plane.info, name);
      return { name, host, kubeconfig: identity.kubeconfig };
    },
    stop: () => plane.stop(),
  };
}
