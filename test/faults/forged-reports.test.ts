/**
 * Forged reports. With the chart's admission policies applied (rendered by the real helm), the
 * real agent of node A — with its real pod-bound token — publishes on A, but every attempt of that
 * identity to write a NodeValidation for another node is refused with 403 by the named policy.
 * Forged reports that arrive anyway (written by an admin, bypassing the policy: a report named
 * after node C that names node A in spec.nodeName, a report for node D owned by node A) are
 * ignored by the running aggregator: their nodes are `unknown` (cause `forged`) with the reason,
 * never `ready` as the forgeries claim.
 */
import { CustomObjectsApi, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeResponseSchema } from '../../aggregator/documents/api.ts';
import { kubeConfigFrom, mergePatch, refusal, waitForAgentPolicy } from '../lab/chart/cluster.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode, podBoundIdentity } from '../lab/controlplane/identities.ts';
import { reportStatus } from '../lab/support/aggregator-cluster.ts';
import type { AgentProcess } from '../lab/processes/launch.ts';
import { type AggregatorProcess, startAggregatorProcess } from '../lab/processes/launch.ts';
import { installCrd } from '../lab/support/crds.ts';
import { createNodeValidation } from '../lab/support/node-validations.ts';
import { waitFor } from '../lab/support/wait.ts';
import { type AppliedPolicies, applyAgentPolicies } from './chart-policies.ts';
import { childEnv } from './child-env.ts';
import { type FaultNode, prepareFaultNode, runFaultAgent } from './fault-nodes.ts';
import { Fault } from './ledger.ts';
import { settle } from './settle.ts';
import { census } from './survivors.ts';
import { publishedMismatches, truthOf } from './truth.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const custom = admin.makeApiClient(CustomObjectsApi);
const core = admin.makeApiClient(CoreV1Api);
const RELEASE = 'fault-forge';
const NAMESPACE = 'fault-forge';
const NV = { group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations' } as const;
const [A, B, C, D] = ['fault-forge-a', 'fault-forge-b', 'fault-forge-c', 'fault-forge-d'] as const;
let policies: AppliedPolicies;
let nodeA: FaultNode;
let agent: AgentProcess;
let aggregator: AggregatorProcess;
let agentKubeconfig = '';

const report = (name: string, nodeName: string, owner: { name: string; uid: string }) => ({
  apiVersion: 'virtgate.io/v1alpha1',
  kind: 'NodeValidation',
  metadata: { name, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', ...owner }] },
  spec: { nodeName },
  // Claims the best: ready on hardware, fresh.
  status: reportStatus({ heartbeatAt: new Date(), ready: true, tier: 'hardware' }),
});

beforeAll(async () => {
  await installCrd(admin);
  policies = await applyAgentPolicies(admin, cp.binDir, RELEASE, NAMESPACE);
  nodeA = await prepareFaultNode(admin, cp, A, 'intel-metal', {
    kubeconfig: async (name) => (agentKubeconfig = (await podBoundIdentity(admin, cp, NAMESPACE, policies.serviceAccount, name)).kubeconfig),
  });
  for (const name of [B, C, D]) await createNode(admin, name);
  // B's genuine report, written the way its own agent would have.
  const b = await core.readNode({ name: B });
  await createNodeValidation(custom, report(B, B, { name: B, uid: b.metadata?.uid ?? '' }));
  await waitForAgentPolicy(kubeConfigFrom(agentKubeconfig).makeApiClient(CoreV1Api), B);
  agent = await runFaultAgent(nodeA);
  aggregator = await startAggregatorProcess(['--kubeconfig', cp.adminKubeconfig], childEnv());
  await settle('node A to publish under the policies', async () => publishedMismatches(admin, nodeA, await truthOf(nodeA)), 60_000);
});

afterAll(async () => {
  await agent?.stop();
  await aggregator?.stop();
  await policies?.remove();
});

describe('forged reports', () => {
  it('the admission policy refuses a NodeValidation forged by an agent for another node (403)', async () => {
    const fault = new Fault('forged-report', 'an agent identity writing another node\'s report');
    try {
      const asAgent = kubeConfigFrom(agentKubeconfig).makeApiClient(CustomObjectsApi);
      const a = await core.readNode({ name: A });
      const before = await custom.getClusterCustomObject({ ...NV, name: B }) as { metadata: { resourceVersion: string } };
      const attempts = [
        ['a report for node B', () => asAgent.createClusterCustomObject({ ...NV, body: report(`${B}-x`, B, { name: B, uid: 'x' }) })],
        ['a report named after A about node B', () => asAgent.createClusterCustomObject({ ...NV, body: report(`${A}-about-b`, B, { name: A, uid: a.metadata?.uid ?? '' }) })],
        ['B\'s own report, its status patched', () => asAgent.patchClusterCustomObjectStatus({ ...NV, name: B, body: { status: { ready: false } } }, mergePatch)],
      ] as const;
      for (const [what, attempt] of attempts) {
        fault.tried();
        const outcome = await refusal(attempt);
        expect(outcome.status, what).toBe(403);
        expect(outcome.message, what).toMatch(new RegExp(`ValidatingAdmissionPolicy '${RELEASE}-virtgate-agent-nodevalidation'`));
      }
      const after = await custom.getClusterCustomObject({ ...NV, name: B }) as { metadata: { resourceVersion: string } };
      // B's report was not touched; A's own is still the agent's.
      const untouched = after.metadata.resourceVersion === before.metadata.resourceVersion;
      const counted = await census(admin, [{ name: A, labels: nodeA.foreignLabels, taints: nodeA.foreignTaints, report: true }]);
      fault.objects(counted.checked + 1, counted.lost.length + (untouched ? 0 : 1));
      expect(untouched).toBe(true);
      expect(counted.lost).toEqual([]);
      fault.handled();
    } finally {
      fault.finish();
    }
  });

  it('the aggregator ignores forged reports that arrive anyway: their nodes are unknown (forged), with why', async () => {
    const fault = new Fault('forged-report', 'forged reports written past the policy (admin)');
    try {
      const a = await core.readNode({ name: A });
      // Named after C, but about node A.
      await createNodeValidation(custom, report(C, A, { name: C, uid: (await core.readNode({ name: C })).metadata?.uid ?? '' }));
      // D's report, owned by node A.
      await createNodeValidation(custom, report(D, D, { name: A, uid: a.metadata?.uid ?? '' }));
      fault.tried(2);
      const node = async (name: string) => {
        const response = await aggregator.get(`/api/v1/nodes/${name}`);
        return response.status === 200 ? nodeResponseSchema.parse(await response.json()).node : undefined;
      };
      const [c, d] = await fault.converge(() =>
        waitFor('the aggregator to judge the forged reports', async () => {
          const judged = await Promise.all([node(C), node(D)]);
          return judged.every((entry) => entry?.unknownCause === 'forged') ? judged : undefined;
        }, 60_000, 500),
      );
      expect(c).toMatchObject({ state: 'unknown', unknownCause: 'forged' });
      expect(c?.reason).toMatch(/spec\.nodeName fault-forge-a, not its own node/);
      expect(d).toMatchObject({ state: 'unknown', unknownCause: 'forged' });
      expect(d?.reason).toMatch(/owned by v1 Node fault-forge-a, not by this node/);
      // The genuine ones still count: A from its agent, B as written.
      expect(await node(A)).toMatchObject({ state: 'ready' });
      expect(await node(B)).toMatchObject({ state: 'ready' });
      const counted = await census(admin, [{ name: A, labels: nodeA.foreignLabels, taints: nodeA.foreignTaints, report: true }]);
      fault.objects(counted.checked, counted.lost.length);
      expect(counted.lost).toEqual([]);
    } finally {
      fault.finish();
    }
  });
});
