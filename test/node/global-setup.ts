import type { TestProject } from 'vitest/node';
import { locateBinaries } from '../lab/controlplane/binaries.ts';
import { locateKubevirt } from '../lab/kubevirt/binaries.ts';
import { buildGuestImages } from '../lab/kubevirt/guest-images.ts';
import { buildKubevirtImages } from '../lab/kubevirt/images.ts';
import { SharedKubevirt } from '../lab/kubevirt/shared.ts';
import { startNodeControl } from '../lab/node/control.ts';
import { buildImages } from '../lab/node/images.ts';
import { RealNode, type RealNodeInfo } from '../lab/node/real-node.ts';

/** What the KubeVirt tests (kubevirt.test.ts) get: KubeVirt's commands and the guests' containerDisks. */
export interface KubevirtInfo {
  binDir: string;
  manifestsDir: string;
  guests: { bootsector: string; linux: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    realNode: RealNodeInfo;
    kubevirt: KubevirtInfo;
  }
}

/** One real node (and its own control plane) for every test file of the "node" project. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.getuid?.() !== 0) throw new Error('the real-node tests need root (network, mounts, cgroups)');
  const binDir = await locateBinaries();
  const kubevirt = await locateKubevirt();
  let t = Date.now();
  const images = await buildImages();
  const kubevirtImages = await buildKubevirtImages();
  const guests = await buildGuestImages();
  process.stderr.write(`[node] images ready in ${Date.now() - t} ms\n`);
  t = Date.now();
  const extra = [...Object.values(kubevirtImages), guests.bootsector, guests.linux].map((image) => image.archive);
  const node = await RealNode.start(binDir, images, extra);
  process.stderr.write(`[node] ${node.info.nodeName} Ready in ${Date.now() - t} ms (API server ${node.info.controlPlane.server})\n`);
  project.provide('realNode', node.info);
  project.provide('kubevirt', { ...kubevirt, guests: { bootsector: guests.bootsector.ref, linux: guests.linux.ref } });
  // Installed when the first file asks (kubevirt.test.ts, canary.test.ts), removed before the node stops.
  const sharedKubevirt = new SharedKubevirt(node.info.controlPlane.adminKubeconfig, node.info.controlPlane.binDir, {
    kubevirt,
    nodeName: node.info.nodeName,
    useEmulation: true,
    workloadsNodeSelector: { 'virtgate.io/ready': 'true' },
    log: (message) => process.stderr.write(`[node/kubevirt] ${message}\n`),
  });
  const control = await startNodeControl({ node, kubevirt: sharedKubevirt });
  project.provide('realNodeControl', control.url);
  return async () => {
    await control.close();
    await sharedKubevirt.uninstall();
    await node.stop();
  };
}
