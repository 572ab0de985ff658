import http from 'node:http';
import type { TestProject } from 'vitest/node';
import { RealCluster } from '../lab/cluster/cluster.ts';
import { clusterLeftovers } from '../lab/cluster/leftovers.ts';
import { previousRelease } from '../lab/cluster/previous-release.ts';
import type { ClusterContext } from '../lab/cluster/use.ts';
import { locateBinaries } from '../lab/controlplane/binaries.ts';
import { locateKubevirt } from '../lab/kubevirt/binaries.ts';
import { buildGuestImages } from '../lab/kubevirt/guest-images.ts';
import { buildKubevirtImages } from '../lab/kubevirt/images.ts';
import { buildImages } from '../lab/node/images.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** POST <url>/start starts the three-node cluster once and answers its ClusterContext (test/lab/cluster/use.ts). */
    clusterControl: string;
  }
}

/**
 * One three-node cluster for every test file of the "cluster" project, started when the first of
 * them asks for it: vitest runs every project's globalSetup before any test, and three idle nodes
 * would otherwise run beside the whole suite.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.getuid?.() !== 0) throw new Error('the cluster tests need root (network and mount namespaces, cgroups)');
  let starting: Promise<{ cluster: RealCluster; context: ClusterContext }> | undefined;
  const start = () => {
    starting ??= (async () => {
      const kubevirt = await locateKubevirt();
      const [kubevirtImages, guests, previous] = [await buildKubevirtImages(), await buildGuestImages(), await previousRelease()];
      // Every node holds KubeVirt's images and the guests': the nodes pull nothing. The previous
      // release's are imported by the one file that runs them (upgrade.test.ts).
      const extra = [...Object.values(kubevirtImages), guests.bootsector, guests.counter].map((image) => image.archive);
      const cluster = await RealCluster.start(await locateBinaries(), await buildImages(), extra);
      process.stderr.write(`[cluster] three nodes Ready in ${cluster.info.startupMs} ms (API server ${cluster.info.controlPlane.server})\n`);
      const context: ClusterContext = { ...cluster.info, kubevirt: { ...kubevirt, guests: { bootsector: guests.bootsector.ref, counter: guests.counter.ref } }, previousRelease: previous };
      return { cluster, context };
    })();
    return starting;
  };
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/start') {
      res.writeHead(404).end('only POST /start');
      return;
    }
    start().then(
      ({ context }) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(context)),
      (error: unknown) => res.writeHead(500).end(error instanceof Error ? error.stack ?? error.message : String(error)),
    );
  });
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the cluster control server has no address');
  project.provide('clusterControl', `http://127.0.0.1:${address.port}`);

  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (!starting) return;
    const started = await starting.catch(() => undefined);
    await started?.cluster.stop();
    if (process.env.VIRTGATE_KEEP_CLUSTER) return;
    // The stop must leave nothing behind; a leftover fails the run.
    const left = await clusterLeftovers();
    if (left.length > 0) throw new Error(`the three-node cluster left on this machine after its stop:\n  ${left.join('\n  ')}`);
    process.stderr.write('[cluster] stopped; no namespace, link, route, chain, mount, cgroup, process or file of it left\n');
  };
}
