import { KubeConfig } from '@kubernetes/client-node';

/**
 * `--kubeconfig PATH` when given; inside a pod, the ServiceAccount; otherwise KUBECONFIG or
 * ~/.kube/config, as kubectl does.
 */
export function loadKubeConfig(path?: string): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else if (process.env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
  else kc.loadFromDefault();
  if (!kc.getCurrentCluster()) {
    throw new Error(path ? `kubeconfig ${path} has no current cluster` : 'no kubeconfig found: pass --kubeconfig or set KUBECONFIG');
  }
  return kc;
}
