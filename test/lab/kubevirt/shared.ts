/**
 * KubeVirt installed once for a whole test project (≈ 100 s on two cores), not once per file.
 * The project's globalSetup owns it: the first file that asks installs it, every later file gets
 * it back as first installed (the `KubeVirt` CR's spec reset to the install's, and the operator
 * having applied it), and the project's teardown removes it as a user uninstalls KubeVirt.
 */
import { AppsV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';
import { waitFor } from '../support/wait.ts';
import { KUBEVIRT_NAMESPACE, kubectl, kubevirtCr } from './deploy.ts';
import { type InstalledKubevirt, installKubevirt, KUBEVIRT_CR, type KubevirtInstallOptions } from './install.ts';

/** What a file gets: how long the install took (0 when an earlier file made it). */
export interface SharedKubevirtUse {
  deployMs: number;
  installedByThisCall: boolean;
}

export class SharedKubevirt {
  private installing: Promise<InstalledKubevirt> | undefined;
  private readonly options: KubevirtInstallOptions;
  private readonly custom: CustomObjectsApi;
  private readonly apps: AppsV1Api;

  constructor(adminKubeconfig: string, binDir: string, options: Omit<KubevirtInstallOptions, 'run' | 'custom'>) {
    const admin = new KubeConfig();
    admin.loadFromFile(adminKubeconfig);
    this.custom = admin.makeApiClient(CustomObjectsApi);
    this.apps = admin.makeApiClient(AppsV1Api);
    this.options = { ...options, run: kubectl(binDir, adminKubeconfig), custom: this.custom };
  }

  /** Installs KubeVirt on the first call; on later ones puts the CR's spec back as installed. */
  async use(): Promise<SharedKubevirtUse> {
    if (this.installing === undefined) {
      this.installing = installKubevirt(this.options);
      return { deployMs: (await this.installing).deployMs, installedByThisCall: true };
    }
    await this.installing;
    await this.restoreSpec();
    return { deployMs: 0, installedByThisCall: false };
  }

  /** Removes KubeVirt if a file installed it (each step logged, never thrown). */
  async uninstall(): Promise<void> {
    const installed = await this.installing?.catch(() => undefined);
    await installed?.uninstall();
  }

  /**
   * A file may have switched emulation off or moved virt-handler away (canary.test.ts,
   * kubevirt.test.ts): the spec is replaced by the install's, then the operator must have copied
   * the placement onto virt-handler's DaemonSet before the next file relies on it.
   */
  private async restoreSpec(): Promise<void> {
    const current = (await this.custom.getNamespacedCustomObject(KUBEVIRT_CR)) as { spec?: Record<string, unknown> };
    const installed = kubevirtCr(this.options).spec as Record<string, unknown>;
    if (!isDeepStrictEqual(current.spec, installed)) {
      await this.custom.replaceNamespacedCustomObject({ ...KUBEVIRT_CR, body: { ...current, spec: installed } });
    }
    const wanted = this.options.workloadsNodeSelector ?? {};
    await waitFor("virt-operator to apply the install's placement to virt-handler", async () => {
      const ds = await this.apps.readNamespacedDaemonSet({ namespace: KUBEVIRT_NAMESPACE, name: 'virt-handler' });
      const selector = { ...ds.spec?.template.spec?.nodeSelector };
      // The operator adds its own `kubernetes.io/os: linux`.
      delete selector['kubernetes.io/os'];
      return isDeepStrictEqual(selector, wanted) ? true : undefined;
    }, 180_000, 500);
  }
}
