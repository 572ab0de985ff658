/**
 * Cluster DNS on the real node, as clusters run it: CoreDNS (built from its Go module by
 * test/lab/controlplane/build.sh, image by images.sh) as a Deployment behind the Service at the
 * kubelet's `clusterDNS` address, serving `cluster.local` from the API with a ServiceAccount that
 * may only list and watch what the kubernetes plugin reads. There is no `forward` plugin and no
 * server block for other zones: CoreDNS itself refuses a name outside the cluster, so no query
 * ever leaves the machine (the egress counters, counters.ts, stay 0).
 */
import { AppsV1Api, CoreV1Api, type KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { ensureNamespace } from '../controlplane/identities.ts';
import { waitFor } from '../support/wait.ts';
import { NODE_LAYOUT } from './layout.ts';

/** The suite's prefix, so cleanup.sh removes its pod logs too. */
export const DNS_NAMESPACE = `${NODE_LAYOUT.namespacePrefix}kube-system`;
/** The name clusters give the DNS Service (kube-dns), whatever serves it. */
export const DNS_SERVICE = 'kube-dns';
export const CLUSTER_DOMAIN = 'cluster.local';
const NAME = 'coredns';
const SELECTOR = { 'k8s-app': DNS_SERVICE };

/**
 * Only the cluster's zones, answered from the API; `errors` logs what failed, `ready` answers
 * once the kubernetes plugin has synced (the readiness probe), `health` for the liveness probe.
 */
export const COREFILE = `${CLUSTER_DOMAIN}:53 in-addr.arpa:53 ip6.arpa:53 {
    errors
    health :8080
    ready :8181
    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa
    cache 30
}
`;

async function createOrKeep(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
}

/** Deploys CoreDNS with `image` in `namespace`, behind `clusterIP` (the kubelets' clusterDNS), and waits until its pod is Ready (its kubernetes plugin synced). */
export async function deployClusterDns(admin: KubeConfig, image: string, clusterIP: string = NODE_LAYOUT.clusterDns, namespace: string = DNS_NAMESPACE, timeoutMs = 120_000): Promise<void> {
  const core = admin.makeApiClient(CoreV1Api);
  const apps = admin.makeApiClient(AppsV1Api);
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  await ensureNamespace(admin, namespace);
  await createOrKeep(() => core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: NAME } } }));
  // What CoreDNS's kubernetes plugin lists and watches (pod records are off: no pods).
  await createOrKeep(() =>
    rbac.createClusterRole({
      body: {
        metadata: { name: `virtgate-node:${NAME}` },
        rules: [
          { apiGroups: [''], resources: ['services', 'namespaces'], verbs: ['list', 'watch'] },
          { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
        ],
      },
    }),
  );
  await createOrKeep(() =>
    rbac.createClusterRoleBinding({
      body: {
        metadata: { name: `virtgate-node:${NAME}` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `virtgate-node:${NAME}` },
        subjects: [{ kind: 'ServiceAccount', name: NAME, namespace }],
      },
    }),
  );
  await createOrKeep(() => core.createNamespacedConfigMap({ namespace, body: { metadata: { name: NAME }, data: { Corefile: COREFILE } } }));
  await createOrKeep(() =>
    core.createNamespacedService({
      namespace,
      body: {
        metadata: { name: DNS_SERVICE, labels: SELECTOR },
        spec: {
          clusterIP,
          selector: SELECTOR,
          ports: [
            { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
            { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          ],
        },
      },
    }),
  );
  await createOrKeep(() =>
    apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: NAME, labels: SELECTOR },
        spec: {
          replicas: 1,
          selector: { matchLabels: SELECTOR },
          template: {
            metadata: { labels: SELECTOR },
            spec: {
              serviceAccountName: NAME,
              // Its own queries must not go to itself; it makes none (no forward plugin).
              dnsPolicy: 'Default',
              securityContext: {
                runAsNonRoot: true,
                runAsUser: 65532,
                runAsGroup: 65532,
                // Port 53 without root or a capability: a namespaced, kubelet-safe sysctl.
                sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '53' }],
                seccompProfile: { type: 'RuntimeDefault' },
              },
              containers: [
                {
                  name: NAME,
                  image,
                  imagePullPolicy: 'Never',
                  args: ['-conf', '/etc/coredns/Corefile'],
                  ports: [
                    { name: 'dns', containerPort: 53, protocol: 'UDP' },
                    { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
                    { name: 'health', containerPort: 8080, protocol: 'TCP' },
                    { name: 'ready', containerPort: 8181, protocol: 'TCP' },
                  ],
                  readinessProbe: { httpGet: { path: '/ready', port: 8181 }, periodSeconds: 1 },
                  livenessProbe: { httpGet: { path: '/health', port: 8080 }, periodSeconds: 10 },
                  resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '128Mi' } },
                  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
                  volumeMounts: [{ name: 'config', mountPath: '/etc/coredns', readOnly: true }],
                },
              ],
              volumes: [{ name: 'config', configMap: { name: NAME } }],
            },
          },
        },
      },
    }),
  );
  await waitFor(
    `CoreDNS to be Ready at ${clusterIP} (logs: /var/log/pods/${namespace}_${NAME}-*)`,
    async () => {
      const pods = await core.listNamespacedPod({ namespace, labelSelector: `k8s-app=${DNS_SERVICE}` });
      return pods.items.some((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ? true : undefined;
    },
    timeoutMs,
    250,
  );
}
