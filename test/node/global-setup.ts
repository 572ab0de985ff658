import type { TestProject } from 'vitest/node';
import { locateBinaries } from '../controlplane/binaries.ts';
import { startNodeControl } from './control.ts';
import { buildImages } from './images.ts';
import { RealNode, type RealNodeInfo } from './real-node.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    realNode: RealNodeInfo;
  }
}

/** One real node (and its own control plane) for every test file of the "node" project. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.getuid?.() !== 0) throw new Error('the real-node tests need root (network, mounts, cgroups)');
  const binDir = await locateBinaries();
  let t = Date.now();
  const images = await buildImages();
  process.stderr.write(`[node] images ready in ${Date.now() - t} ms\n`);
  t = Date.now();
  const node = await RealNode.start(binDir, images);
  process.stderr.write(`[node] ${node.info.nodeName} Ready in ${Date.now() - t} ms (API server ${node.info.controlPlane.server})\n`);
  project.provide('realNode', node.info);
  const control = await startNodeControl(node);
  project.provide('realNodeControl', control.url);
  return async () => {
    await control.close();
    await node.stop();
  };
}
