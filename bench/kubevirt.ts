/**
 * Real KubeVirt on the real node (part of `npm run bench -- node`): KubeVirt's images, then the
 * path a platform team walks — virtgate's chart installed with emulation allowed, KubeVirt's
 * operator and CR pointed at `virtgate.io/ready=true` — timed step by step to the guest's own
 * marker on its serial console, with the same code as test/node/kubevirt.test.ts.
 */
import { stat } from 'node:fs/promises';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { CHART_DIR, helmOk } from '../test/lab/chart/helm.ts';
import { locateKubevirt } from '../test/lab/kubevirt/binaries.ts';
import { createFromText, KUBEVIRT_NAMESPACE, kubectl, kubevirtCr, renderOperatorManifest } from '../test/lab/kubevirt/deploy.ts';
import { type GuestImages, hasBootsectorMarker } from '../test/lab/kubevirt/guest-images.ts';
import type { KubevirtImages } from '../test/lab/kubevirt/images.ts';
import { createVmi, guestConsole, launcherPod, readVmi, tinyVmi } from '../test/lab/kubevirt/vmi.ts';
import type { RealNodeInfo } from '../test/lab/node/real-node.ts';
import { imageValues, NS, RELEASE } from '../test/lab/node/release.ts';
import { waitFor } from '../test/lab/support/wait.ts';
import type { BenchRow } from './table.ts';

const MB = 1e6;
const section = 'real node: KubeVirt v1.9.0';

/** KubeVirt's image sizes, read before the node starts. */
export async function kubevirtImageRows(images: KubevirtImages, guests: GuestImages): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [role, image] of [...Object.entries(images), ['guest containerDisk (boot sector)', guests.bootsector], ['guest containerDisk (Linux)', guests.linux]] as const) {
    const size = (await stat(image.archive)).size;
    rows.push({ section, figure: `image size: ${role} (docker-archive)`, value: size / MB, unit: 'MB' });
  }
  const started = Date.now();
  await execa('bash', [path.join(PACKAGE_ROOT, 'test/lab/kubevirt/build.sh')], { timeout: 60_000 });
  rows.push({ section, figure: 'KubeVirt build, warm (build.sh finds every binary)', value: (Date.now() - started) / 1000, unit: 's' });
  return rows;
}

/** Installs virtgate and KubeVirt on the started node and boots one tiny VM; the times of each step. Leaves removal to the node's stop. */
export async function kubevirtTimings(node: RealNodeInfo, admin: KubeConfig, guests: GuestImages, log: (text: string) => void): Promise<BenchRow[]> {
  const core = admin.makeApiClient(CoreV1Api);
  const custom = admin.makeApiClient(CustomObjectsApi);
  const run = kubectl(node.controlPlane.binDir, node.controlPlane.adminKubeconfig);
  const { binDir, manifestsDir } = await locateKubevirt();
  const t0 = Date.now();
  log('KubeVirt: helm install (emulation allowed), until the node is labelled ready…');
  await helmOk(node.controlPlane.binDir, ['upgrade', '--install', RELEASE, CHART_DIR, '--namespace', NS, '--create-namespace', ...imageValues(node.images),
    '--set', 'agent.allowEmulation=true'], node.controlPlane.adminKubeconfig);
  await waitFor('the node labelled ready', async () => ((await core.readNode({ name: node.nodeName })).metadata?.labels?.['virtgate.io/ready'] === 'true' ? true : undefined), 240_000, 250);
  const readyMs = Date.now() - t0;
  log('KubeVirt: operator, CR, until virt-handler runs on the node…');
  await run(['label', 'node', node.nodeName, 'node-role.kubernetes.io/control-plane=', '--overwrite']);
  await createFromText(run, await renderOperatorManifest(binDir, manifestsDir, KUBEVIRT_NAMESPACE));
  await custom.createNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', namespace: KUBEVIRT_NAMESPACE, plural: 'kubevirts',
    body: kubevirtCr({ useEmulation: true, workloadsNodeSelector: { 'virtgate.io/ready': 'true' } }) });
  await waitFor('virt-handler Running and the node schedulable', async () => {
    const labels = (await core.readNode({ name: node.nodeName })).metadata?.labels ?? {};
    return labels['kubevirt.io/schedulable'] === 'true' ? true : undefined;
  }, 600_000, 500);
  const handlerMs = Date.now() - t0;
  await core.createNamespace({ body: { metadata: { name: 'vgnode-bench-vms' } } });
  log('KubeVirt: one tiny VMI, until the guest prints its marker…');
  const t1 = Date.now();
  await createVmi(custom, tinyVmi({ name: 'bench', namespace: 'vgnode-bench-vms', image: guests.bootsector.ref, nodeName: node.nodeName }));
  const running = await waitFor('the VMI Running', async () => {
    const vmi = await readVmi(custom, 'vgnode-bench-vms', 'bench');
    return vmi.status?.phase === 'Running' ? vmi : undefined;
  }, 240_000, 250);
  const runningMs = Date.now() - t1;
  const pod = await launcherPod(core, 'vgnode-bench-vms', running.metadata?.uid ?? '');
  if (!pod) throw new Error('no virt-launcher pod for the Running VMI');
  await waitFor('the guest marker', async () => (hasBootsectorMarker(await guestConsole(core, pod)) ? true : undefined), 120_000, 250);
  const markerMs = Date.now() - t1;
  return [
    { section, figure: '`helm upgrade` of virtgate (emulation allowed) to the node labelled ready', value: readyMs / 1000, unit: 's' },
    { section, figure: 'the same upgrade to virt-handler Running on the node (KubeVirt operator and CR created once the node is ready)', value: handlerMs / 1000, unit: 's' },
    { section, figure: 'VMI created to Running (TCG)', value: runningMs / 1000, unit: 's' },
    { section, figure: 'VMI created to the guest marker on its serial console', value: markerMs / 1000, unit: 's' },
  ];
}
