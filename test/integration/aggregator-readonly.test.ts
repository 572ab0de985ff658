/**
 * The aggregator is read-only, and it does not LIST in a loop: run as a real process with a
 * pod-bound ServiceAccount token whose ClusterRole grants only get, list and watch, and count its
 * requests in the API server's audit log.
 */
import { type KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponseSchema, gateResponseSchema, summaryResponseSchema } from '../../aggregator/documents/api.ts';
import { type AuditEvent, WRITE_VERBS } from '../lab/controlplane/audit.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { podBoundIdentity, type PodIdentity } from '../lab/controlplane/identities.ts';
import { runCli } from '../lab/cli.ts';
import { createCdi, createKubeVirt, createValidatedNode, installKubeVirtCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { type AggregatorProcess, startAggregatorProcess } from '../lab/processes/launch.ts';
import { installCrd } from '../lab/support/crds.ts';
import { statusOf, waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
const NAMESPACE = 'agg-readonly';
const ROLE = 'agg-readonly-test';
/** The chart's aggregator ClusterRole, as tests here grant it. */
const RULES = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['virtgate.io'], resources: ['nodevalidations'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['kubevirt.io'], resources: ['kubevirts'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['kubevirt.io'], resources: ['virtualmachineinstances'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['cdi.kubevirt.io'], resources: ['cdis'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', 'list', 'watch'] },
];
const NOW = new Date('2026-12-02T12:00:00Z');
const heartbeatAt = new Date(NOW.getTime() - 60_000);
const READY = { 'virtgate.io/ready': 'true' };

let admin: KubeConfig;
let identity: PodIdentity;
let proc: AggregatorProcess | undefined;

async function ignoreConflict(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (error) {
    if (statusOf(error) !== 409) throw error;
  }
}

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
  await installKubeVirtCrds(admin);
  await resetCluster(admin);
  await createValidatedNode(admin, 'agg-ro-1', { node: { labels: READY }, report: { heartbeatAt } });
  await createValidatedNode(admin, 'agg-ro-2', { node: { labels: READY }, report: { heartbeatAt } });
  await createKubeVirt(admin, { name: 'agg-ro', version: 'v1.9.0', nodePlacement: { nodeSelector: READY } });
  await createCdi(admin, 'agg-ro', 'v1.66.0');
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  await ignoreConflict(() => rbac.createClusterRole({ body: { metadata: { name: ROLE }, rules: RULES } }));
  await ignoreConflict(() =>
    rbac.createClusterRoleBinding({
      body: {
        metadata: { name: ROLE },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: ROLE },
        subjects: [{ kind: 'ServiceAccount', name: 'aggregator', namespace: NAMESPACE }],
      },
    }),
  );
  identity = await podBoundIdentity(admin, cp, NAMESPACE, 'aggregator', 'agg-ro-1');
});

afterAll(async () => {
  await proc?.stop();
});

const mine = (events: AuditEvent[]) => events.filter((event) => event.user.username === identity.username);

describe('the aggregator with get/list/watch only', () => {
  it('never writes, and LISTs each resource once, not in a loop', async () => {
    const start = await cp.audit.mark();
    proc = await startAggregatorProcess(['--kubeconfig', identity.kubeconfig]);
    // The gate document, checked against its schema; null while the aggregator answers an error document.
    const gate = async () => {
      const response = await proc?.get('/api/v1/gate');
      if (response?.status !== 200) {
        errorResponseSchema.parse(await response?.json());
        return null;
      }
      return gateResponseSchema.parse(await response.json());
    };
    await waitFor('the aggregator to be ready', async () => ((await proc?.get('/readyz'))?.status === 200 ? true : undefined), 60_000);
    await waitFor('the first report', async () => ((await gate())?.readiness.total === 2 ? true : undefined));

    // Half a minute of quiet, with a change in it: the change arrives through the watch, not a
    // LIST, and a polling loop (anything relisting more often than every 30 s) would show. The
    // informers' own relists (watch timeout 300 s, staleness 330 s) are the reflector tests' job.
    const quiet = await cp.audit.mark();
    const quietStarted = Date.now();
    await createValidatedNode(admin, 'agg-ro-3', { node: { labels: READY }, report: { heartbeatAt } });
    await waitFor('the new node to be seen', async () => ((await gate())?.readiness.total === 3 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - quietStarted))));
    expect((await proc.get('/readyz')).status).toBe(200);
    const summary = summaryResponseSchema.parse(await (await proc.get('/api/v1/summary')).json());
    expect(summary.aggregator.watches.map((watch) => `${watch.kind}:${watch.lists}`).sort()).toEqual(
      ['cdis', 'crd/cdis.cdi.kubevirt.io', 'crd/kubevirts.kubevirt.io', 'crd/virtualmachineinstances.kubevirt.io', 'kubevirts', 'nodes', 'nodevalidations'].map((kind) => `${kind}:1`),
    );

    const all = mine(await cp.audit.since(start));
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((event) => WRITE_VERBS.has(event.verb)).map((event) => `${event.verb} ${event.requestURI}`)).toEqual([]);
    expect([...new Set(all.map((event) => event.verb))].every((verb) => ['get', 'list', 'watch'].includes(verb))).toBe(true);
    // Nothing it asked for was refused: the chart's read-only role is enough.
    expect(all.filter((event) => event.responseStatus?.code === 403).map((event) => event.requestURI)).toEqual([]);
    const lists = all.filter((event) => event.verb === 'list').map((event) => event.objectRef?.resource ?? event.requestURI);
    expect(lists.sort()).toEqual(['cdis', 'customresourcedefinitions', 'customresourcedefinitions', 'customresourcedefinitions', 'kubevirts', 'nodes', 'nodevalidations']);
    expect(mine(await cp.audit.since(quiet)).filter((event) => event.verb === 'list')).toEqual([]);
  });

  it('stops on SIGTERM with exit 0', async () => {
    expect(await proc?.stop()).toBe(0);
    proc = undefined;
  });

  it('virtgate gate works with the same read-only identity', async () => {
    const start = await cp.audit.mark();
    const outcome = await runCli(['gate', '--kubeconfig', identity.kubeconfig, '--now', NOW.toISOString()]);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const events = mine(await cp.audit.since(start));
    expect(events.filter((event) => WRITE_VERBS.has(event.verb))).toEqual([]);
    expect(events.filter((event) => event.verb === 'watch')).toEqual([]);
  });
});
