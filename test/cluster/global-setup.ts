import type { TestProject } from 'vitest/node';
import { RealCluster, type ClusterInfo } from '../lab/cluster/cluster.ts';
import { locateBinaries } from '../lab/controlplane/binaries.ts';
import { buildImages } from '../lab/node/images.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    cluster: ClusterInfo;
  }
}

/** One three-node cluster (and its control plane) for every test file of the "cluster" project. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.getuid?.() !== 0) throw new Error('the cluster tests need root (network and mount namespaces, cgroups)');
  const binDir = await locateBinaries();
  const images = await buildImages();
  const cluster = await RealCluster.start(binDir, images);
  process.stderr.write(`[cluster] three nodes Ready in ${cluster.info.startupMs} ms (API server ${cluster.info.controlPlane.server})\n`);
  project.provide('cluster', cluster.info);
  return async () => {
    await cluster.stop();
  };
}
