/**
 * KubeVirt installed on the real node and removed again, as a user does it (deploy.ts renders
 * what is created): the control-plane label virt-operator needs, the operator's manifest, its
 * rollout, the `KubeVirt` CR, and `Available`. The node project installs it once for its files
 * (shared.ts); the cluster's KubeVirt file installs it for itself. `uninstall` removes exactly what it made.
 */
import { type CustomObjectsApi } from '@kubernetes/client-node';
import { mergePatch } from '../chart/cluster.ts';
import { createFromText, KUBEVIRT_NAMESPACE, kubectl, kubevirtCr, renderOperatorManifest } from './deploy.ts';

/** The one KubeVirt CR, as the client's custom-object calls name it. */
export const KUBEVIRT_CR = { group: 'kubevirt.io', version: 'v1', namespace: KUBEVIRT_NAMESPACE, plural: 'kubevirts', name: 'kubevirt' } as const;

export interface KubevirtInstallOptions {
  /** The real kubectl with the admin kubeconfig (deploy.ts). */
  run: ReturnType<typeof kubectl>;
  custom: CustomObjectsApi;
  /** KubeVirt's commands and manifests (binaries.ts, through the node project's `kubevirt`). */
  kubevirt: { binDir: string; manifestsDir: string };
  nodeName: string;
  useEmulation: boolean;
  /** `spec.workloads.nodePlacement.nodeSelector`: where virt-handler, and so VMs, may run. */
  workloadsNodeSelector?: Record<string, string>;
  /** Progress lines (one per step). */
  log?: (message: string) => void;
}

export interface InstalledKubevirt {
  /** Operator manifest → KubeVirt CR Available, in ms. */
  deployMs: number;
  /** Removes what install made, each step logged and never thrown, as a user uninstalls KubeVirt. */
  uninstall(): Promise<void>;
}

/** Installs KubeVirt and waits for its CR to be Available (a cold node: ~90 s on two cores). */
export async function installKubevirt(options: KubevirtInstallOptions): Promise<InstalledKubevirt> {
  const { run, custom, nodeName } = options;
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  let operatorManifest: string | undefined;
  const uninstall = async () => {
    const step = (what: string, args: string[]) => run(args).catch((e: Error) => log(`${what}: ${e.message}`));
    // The CR first: the operator removes what it deployed, then the operator itself goes.
    await step('KubeVirt CR', ['-n', KUBEVIRT_NAMESPACE, 'delete', 'kubevirt', 'kubevirt', '--wait=true', '--timeout=240s', '--ignore-not-found']);
    if (operatorManifest) await step('operator', ['delete', '-f', operatorManifest, '--wait=false', '--ignore-not-found']);
    await step('control-plane label', ['label', 'node', nodeName, 'node-role.kubernetes.io/control-plane-']);
  };
  try {
    // virt-operator requires a control-plane node (its Deployment's required node affinity); the one
    // node is both, as in a single-node kubeadm cluster. An admin's label: NodeRestriction keeps the
    // kubelet from setting it.
    await run(['label', 'node', nodeName, 'node-role.kubernetes.io/control-plane=', '--overwrite']);
    operatorManifest = await createFromText(run, await renderOperatorManifest(options.kubevirt.binDir, options.kubevirt.manifestsDir, KUBEVIRT_NAMESPACE));
    await run(['-n', KUBEVIRT_NAMESPACE, 'rollout', 'status', 'deployment/virt-operator', '--timeout=240s']);
    await custom.createNamespacedCustomObject({ ...KUBEVIRT_CR, body: kubevirtCr({ useEmulation: options.useEmulation, workloadsNodeSelector: options.workloadsNodeSelector }) });
    await run(['-n', KUBEVIRT_NAMESPACE, 'wait', 'kubevirt/kubevirt', '--for=condition=Available', '--timeout=480s']);
  } catch (error) {
    // A half-made install is removed here: the caller's afterAll has nothing to call uninstall on.
    await uninstall();
    throw error;
  }
  const deployMs = Date.now() - started;
  log(`KubeVirt Available ${deployMs} ms after its operator's manifest`);
  return { deployMs, uninstall };
}

/** Switches `developerConfiguration.useEmulation` on the installed CR. */
export async function setUseEmulation(custom: CustomObjectsApi, useEmulation: boolean): Promise<void> {
  await custom.patchNamespacedCustomObject(
    { ...KUBEVIRT_CR, body: { spec: { configuration: { developerConfiguration: { useEmulation } } } } },
    // Custom resources take a merge patch.
    mergePatch,
  );
}
