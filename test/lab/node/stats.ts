import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';

/** The part of the kubelet's /stats/summary the suite reads. */
export interface StatsSummary {
  pods: Array<{
    podRef: { name: string; namespace: string };
    containers: Array<{ name: string; memory?: { workingSetBytes?: number; rssBytes?: number }; cpu?: { usageNanoCores?: number } }>;
  }>;
}

/** The kubelet's /stats/summary, through the API server's nodes/proxy (as `kubectl get --raw` reads it). */
export async function statsSummary(admin: KubeConfig, nodeName: string): Promise<StatsSummary> {
  // Typed as a string, but the client parses a JSON answer.
  const body: unknown = await admin.makeApiClient(CoreV1Api).connectGetNodeProxyWithPath({ name: nodeName, path: 'stats/summary' });
  return (typeof body === 'string' ? JSON.parse(body) : body) as StatsSummary;
}
