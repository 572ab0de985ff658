import { inject } from 'vitest';
import type { ClusterInfo } from './cluster.ts';
import type { PreviousRelease } from './previous-release.ts';

/** The cluster as a test file gets it: the nodes and control plane, KubeVirt's commands and guests, the previous release. */
export interface ClusterContext extends ClusterInfo {
  kubevirt: { binDir: string; manifestsDir: string; guests: { bootsector: string; counter: string } };
  /** The release the rolling upgrade starts from, its images on every node. */
  previousRelease: PreviousRelease;
}

/**
 * From a test file's beforeAll: the three-node cluster, started by the project's globalSetup on
 * the first call (test/cluster/global-setup.ts) and shared by every file after.
 */
export async function useCluster(): Promise<ClusterContext> {
  const response = await fetch(`${inject('clusterControl')}/start`, { method: 'POST', signal: AbortSignal.timeout(600_000) });
  const body = await response.text();
  if (!response.ok) throw new Error(`the three-node cluster did not start: ${body}`);
  return JSON.parse(body) as ClusterContext;
}
