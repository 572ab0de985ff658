import type { TestProject } from 'vitest/node';
import { locateBinaries } from './binaries.ts';
import { ControlPlane, type ControlPlaneInfo } from './control-plane.ts';
import { startControlServer } from './control-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    controlPlane: ControlPlaneInfo & { controlUrl: string };
  }
}

/** One real control plane for every integration test file of a run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const binDir = await locateBinaries();
  const started = Date.now();
  const plane = await ControlPlane.start(binDir);
  const control = await startControlServer(plane);
  process.stderr.write(`[controlplane] etcd + kube-apiserver ready in ${Date.now() - started} ms at ${plane.info.server}\n`);
  project.provide('controlPlane', { ...plane.info, controlUrl: control.url });
  return async () => {
    await control.close();
    await plane.stop();
  };
}
