/**
 * `rbac.create=false` with ServiceAccounts the user made (`serviceAccount.create=false`), installed
 * into the real API server: the release brings no RBAC object and no ServiceAccount, its agent
 * ServiceAccount can do nothing until granted, and the roles docs/install.md tells the user to
 * render, once applied, grant each ServiceAccount what the chart's own roles would (the API
 * server's SubjectAccessReview is the judge).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  AdmissionregistrationV1Api,
  AuthorizationV1Api,
  CoreV1Api,
  KubernetesObjectApi,
  RbacAuthorizationV1Api,
  type V1ResourceAttributes,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { CHART_DIR, helmOk, type Manifest, parseManifests } from '../lab/chart/helm.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);

const NS = 'chart-rbac-external';
const RELEASE = 'virtgate-external';
const AGENT_SA = 'platform-agent';
const AGGREGATOR_SA = 'platform-aggregator';
const RBAC_KINDS = ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'];
const VALUES = [
  '--set', 'agent.serviceAccount.create=false', '--set', `agent.serviceAccount.name=${AGENT_SA}`,
  '--set', 'aggregator.serviceAccount.create=false', '--set', `aggregator.serviceAccount.name=${AGGREGATOR_SA}`,
];

const applied: Manifest[] = [];

/** Whether the API server's authorizer lets this ServiceAccount do it. */
async function allowed(serviceAccount: string, attributes: V1ResourceAttributes): Promise<boolean> {
  const review = await admin.makeApiClient(AuthorizationV1Api).createSubjectAccessReview({
    body: { spec: { user: `system:serviceaccount:${NS}:${serviceAccount}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'], resourceAttributes: attributes } },
  });
  return review.status?.allowed === true;
}

/** The templates docs/install.md (RBAC managed outside the chart) tells the user to render. */
async function documentedTemplates(): Promise<string[]> {
  const doc = await readFile(path.join(PACKAGE_ROOT, 'docs/install.md'), 'utf8');
  const section = doc.split('### RBAC managed outside the chart')[1]?.split(/^#/m)[0] ?? '';
  return [...section.matchAll(/--show-only (\S+)/g)].map((match) => match[1] ?? '');
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: NS, labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } } });
  for (const name of [AGENT_SA, AGGREGATOR_SA]) await core.createNamespacedServiceAccount({ namespace: NS, body: { metadata: { name } } });
  // The CRD belongs to whichever release or file made it first; this one leaves it alone.
  await helmOk(
    cp.binDir,
    ['install', RELEASE, CHART_DIR, '--namespace', NS, '--set', 'rbac.create=false', '--set', 'crds.install=false', '--set', 'prune.onUninstall=false', ...VALUES],
    cp.adminKubeconfig,
  );
});

afterAll(async () => {
  await helmOk(cp.binDir, ['uninstall', RELEASE, '--namespace', NS, '--wait'], cp.adminKubeconfig);
  const objects = KubernetesObjectApi.makeApiClient(admin);
  for (const object of applied) await objects.delete(object);
  await core.deleteNamespace({ name: NS });
});

describe('rbac.create=false with existing ServiceAccounts', () => {
  it('installs no Role, ClusterRole, binding or ServiceAccount; the admission policy holds the named agent ServiceAccount', async () => {
    const manifest = parseManifests(await helmOk(cp.binDir, ['get', 'manifest', RELEASE, '--namespace', NS], cp.adminKubeconfig));
    expect(manifest.filter((o) => [...RBAC_KINDS, 'ServiceAccount'].includes(o.kind)).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
    expect(manifest.some((o) => o.kind === 'DaemonSet')).toBe(true);

    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    const labelSelector = `app.kubernetes.io/instance=${RELEASE}`;
    expect((await rbac.listClusterRole({ labelSelector })).items).toEqual([]);
    expect((await rbac.listClusterRoleBinding({ labelSelector })).items).toEqual([]);
    expect((await rbac.listRoleForAllNamespaces({ labelSelector })).items).toEqual([]);

    const policy = await admin.makeApiClient(AdmissionregistrationV1Api).readValidatingAdmissionPolicy({ name: `${RELEASE}-agent-node` });
    expect(policy.spec?.matchConditions?.[0]?.expression).toBe(`request.userInfo.username == 'system:serviceaccount:${NS}:${AGENT_SA}'`);
    // The user's ServiceAccounts are theirs: helm did not adopt them.
    expect((await core.readNamespacedServiceAccount({ namespace: NS, name: AGENT_SA })).metadata?.labels?.['app.kubernetes.io/managed-by']).toBeUndefined();

    expect(await allowed(AGENT_SA, { verb: 'patch', resource: 'nodes' })).toBe(false);
    expect(await allowed(AGGREGATOR_SA, { verb: 'list', resource: 'nodes' })).toBe(false);
  });

  it("the roles docs/install.md renders, once applied, grant each ServiceAccount what the chart's own would", async () => {
    const templates = await documentedTemplates();
    expect(templates.length).toBe(4);
    const rendered = parseManifests(
      await helmOk(cp.binDir, ['template', RELEASE, CHART_DIR, '--namespace', NS, ...VALUES, ...templates.flatMap((file) => ['--show-only', file])]),
    );
    const roles = rendered.filter((o) => RBAC_KINDS.includes(o.kind));
    // Agent: a ClusterRole and an Event Role, each bound; aggregator, prune, test: a ClusterRole each, bound.
    expect(roles.length).toBe(10);
    const objects = KubernetesObjectApi.makeApiClient(admin);
    for (const role of roles) {
      // Only what the user applies: no Helm hook or release annotation matters to the API server.
      await objects.create({ ...role, metadata: { ...role.metadata, annotations: {} } });
      applied.push(role);
    }

    const agent = (attributes: V1ResourceAttributes) => allowed(AGENT_SA, attributes);
    expect(await agent({ verb: 'patch', resource: 'nodes' })).toBe(true);
    expect(await agent({ verb: 'patch', resource: 'nodes', subresource: 'status' })).toBe(true);
    expect(await agent({ verb: 'create', group: 'virtgate.io', resource: 'nodevalidations' })).toBe(true);
    expect(await agent({ verb: 'create', resource: 'events', namespace: 'default' })).toBe(true);
    expect(await agent({ verb: 'delete', resource: 'nodes' })).toBe(false);
    expect(await agent({ verb: 'list', resource: 'secrets', namespace: NS })).toBe(false);

    const aggregator = (attributes: V1ResourceAttributes) => allowed(AGGREGATOR_SA, attributes);
    expect(await aggregator({ verb: 'watch', group: 'kubevirt.io', resource: 'virtualmachineinstances' })).toBe(true);
    expect(await aggregator({ verb: 'list', group: 'virtgate.io', resource: 'nodevalidations' })).toBe(true);
    expect(await aggregator({ verb: 'patch', resource: 'nodes' })).toBe(false);

    // The hook ServiceAccounts do not exist yet: a binding may name them beforehand.
    expect(await allowed(`${RELEASE}-prune`, { verb: 'delete', group: 'virtgate.io', resource: 'nodevalidations' })).toBe(true);
    expect(await allowed(`${RELEASE}-test`, { verb: 'list', group: 'cdi.kubevirt.io', resource: 'cdis' })).toBe(true);
    expect(await allowed(`${RELEASE}-test`, { verb: 'get', resource: 'nodes' })).toBe(false);
  });
});
