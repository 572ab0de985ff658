/**
 * The chart's agent-side guard rails, rendered by the real helm and applied to the control plane:
 * the three ValidatingAdmissionPolicies with their bindings and the agent's RBAC, exactly as
 * `helm install` would create them for release `release` in namespace `namespace`.
 */
import { type KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { CHART_DIR, helmOk, parseManifests } from '../lab/chart/helm.ts';
import { statusOf } from '../lab/support/wait.ts';

const KINDS = new Set(['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

export interface AppliedPolicies {
  /** The agent's ServiceAccount: the policies match only its username. */
  serviceAccount: string;
  policyNames: string[];
  remove(): Promise<void>;
}

export async function applyAgentPolicies(admin: KubeConfig, binDir: string, release: string, namespace: string): Promise<AppliedPolicies> {
  const rendered = parseManifests(await helmOk(binDir, ['template', release, CHART_DIR, '--namespace', namespace]));
  const fullname = `${release}-virtgate`;
  const objects = rendered.filter((object) => KINDS.has(object.kind) && object.metadata.name.startsWith(`${fullname}-agent`));
  const api = KubernetesObjectApi.makeApiClient(admin);
  for (const object of objects) {
    try {
      await api.create(object as KubernetesObject);
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
    }
  }
  return {
    serviceAccount: `${fullname}-agent`,
    policyNames: objects.filter((object) => object.kind === 'ValidatingAdmissionPolicy').map((object) => object.metadata.name),
    remove: async () => {
      for (const object of objects) await api.delete(object as KubernetesObject).catch(() => undefined);
    },
  };
}
