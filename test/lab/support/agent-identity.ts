import { type KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { ControlPlaneInfo } from '../controlplane/control-plane.ts';
import { podBoundIdentity, type PodIdentity } from '../controlplane/identities.ts';

export const AGENT_NAMESPACE = 'virtgate-test';
export const AGENT_SERVICE_ACCOUNT = 'agent';

/**
 * The agent's permissions as the chart grants them (the chart test proves the chart's own
 * objects); tests here use a pod-bound token, so every request in the audit log carries the
 * node name and can be counted per node.
 */
const RULES = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
  { apiGroups: ['virtgate.io'], resources: ['nodevalidations'], verbs: ['get', 'create'] },
  { apiGroups: ['virtgate.io'], resources: ['nodevalidations/status'], verbs: ['patch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create'] },
];

async function ignoreConflict(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
}

export async function agentIdentity(admin: KubeConfig, info: Pick<ControlPlaneInfo, 'server' | 'caFile' | 'dir'>, nodeName: string): Promise<PodIdentity> {
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  await ignoreConflict(() => rbac.createClusterRole({ body: { metadata: { name: 'virtgate-test-agent' }, rules: RULES } }));
  await ignoreConflict(() =>
    rbac.createClusterRoleBinding({
      body: {
        metadata: { name: 'virtgate-test-agent' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'virtgate-test-agent' },
        subjects: [{ kind: 'ServiceAccount', name: AGENT_SERVICE_ACCOUNT, namespace: AGENT_NAMESPACE }],
      },
    }),
  );
  return podBoundIdentity(admin, info, AGENT_NAMESPACE, AGENT_SERVICE_ACCOUNT, nodeName);
}
