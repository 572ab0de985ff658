import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Cluster, type Context, KubeConfig, type User } from '@kubernetes/client-node';

export interface KubeConfigChoice {
  /** `--kubeconfig PATH`: this file only. */
  kubeconfig?: string | undefined;
  /** `--context NAME`: use this context instead of the file's current-context. */
  context?: string | undefined;
}

/**
 * Finds the cluster the way kubectl does: `--kubeconfig`; else every file in KUBECONFIG (missing
 * ones ignored, merged, the first file to set a name or the current-context wins); else
 * ~/.kube/config; else, inside a pod, its ServiceAccount. So `virtgate gate` run in a CI pod with
 * KUBECONFIG set gates the cluster KUBECONFIG names, not the pod's own.
 */
export function loadKubeConfig(choice: KubeConfigChoice = {}, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): KubeConfig {
  const kc = new KubeConfig();
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).filter((file) => file !== '');
  const homeConfig = path.join(home, '.kube', 'config');
  if (choice.kubeconfig) {
    kc.loadFromFile(choice.kubeconfig);
  } else if (fromEnv.length > 0) {
    const files = fromEnv.filter((file) => existsSync(file));
    if (files.length === 0) throw new Error(`KUBECONFIG names no file that exists (${env.KUBECONFIG}); fix it or pass --kubeconfig`);
    for (const file of files) {
      const part = new KubeConfig();
      part.loadFromFile(file);
      mergeFirstWins(kc, part);
    }
  } else if (existsSync(homeConfig)) {
    kc.loadFromFile(homeConfig);
  } else if (env.KUBERNETES_SERVICE_HOST) {
    kc.loadFromCluster();
  } else {
    throw new Error('no kubeconfig found: pass --kubeconfig, set KUBECONFIG or create ~/.kube/config (inside a pod the ServiceAccount is used)');
  }
  if (choice.context) {
    if (!kc.getContextObject(choice.context)) {
      const known = kc.getContexts().map((context) => context.name);
      throw new Error(`context "${choice.context}" is not in the kubeconfig (it has: ${known.length > 0 ? known.join(', ') : 'none'})`);
    }
    kc.setCurrentContext(choice.context);
  }
  if (!kc.getCurrentCluster()) {
    throw new Error(kc.getCurrentContext() ? `kubeconfig context "${kc.getCurrentContext()}" names no cluster` : 'the kubeconfig has no current context: pass --context NAME');
  }
  return kc;
}

/** kubectl's merge rule: the first file to set a cluster, user, context or current-context wins. */
function mergeFirstWins(into: KubeConfig, part: KubeConfig): void {
  if (!into.currentContext && part.currentContext) into.currentContext = part.currentContext;
  const has = <T extends { name: string }>(list: readonly T[] | undefined, name: string) => (list ?? []).some((item) => item.name === name);
  for (const cluster of part.clusters as Cluster[]) if (!has(into.clusters, cluster.name)) into.addCluster(cluster);
  for (const user of part.users as User[]) if (!has(into.users, user.name)) into.addUser(user);
  for (const context of part.contexts as Context[]) if (!has(into.contexts, context.name)) into.addContext(context);
}
