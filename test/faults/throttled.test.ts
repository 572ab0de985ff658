/**
 * 429 Too Many Requests with Retry-After, from the real API server: API Priority and Fairness puts
 * the agent's ServiceAccount into a priority level that runs one request at a time and rejects
 * the rest, and a noisy neighbour in the same level keeps that one seat busy (see
 * priority-level.ts). The agent reaches the server through RecordingProxy, which injects nothing
 * and records the server's answers, so the test knows each Retry-After the agent was given and
 * when the agent came back. Every request after a 429 must come at least Retry-After seconds
 * later; the verdict change made during the throttling is published once it ends.
 */
import path from 'node:path';
import { KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { podBoundIdentity } from '../lab/controlplane/identities.ts';
import { removeDevice } from '../lab/hosts/build-host.ts';
import { agentIdentity } from '../lab/support/agent-identity.ts';
import type { AgentProcess } from '../lab/processes/launch.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { type FaultNode, prepareFaultNode, runFaultAgent } from './fault-nodes.ts';
import { kubeconfigVia } from './kubeconfig-via.ts';
import { Fault } from './ledger.ts';
import { throttledRecoveryBound } from './recovery-bounds.ts';
import { NoisyNeighbour, removeThrottle, THROTTLE_NAMESPACE, throttleServiceAccounts } from './priority-level.ts';
import { crashes, pidsOf } from './processes.ts';
import { unreadyAgent } from './readiness.ts';
import { type Exchange, RecordingProxy } from './recording-proxy.ts';
import { settle, sleep } from './settle.ts';
import { census } from './survivors.ts';
import { publishedMismatches, truthOf } from './truth.ts';
import { type SlowWebhook, startSlowWebhook } from '../lab/support/slow-webhook.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const NAME = 'fault-throttle';
const PKI = path.join(cp.dir, 'pki');
let proxy: RecordingProxy;
let webhook: SlowWebhook;
let node: FaultNode;
let agent: AgentProcess;
let priorityLevelUid = '';
let neighbourKubeconfig = '';

/** The agent's identity in the throttled namespace, with the agent's permissions, reaching the server through the proxy. */
async function throttledAgentKubeconfig(name: string): Promise<string> {
  // Makes sure the agent ClusterRole exists (agentIdentity creates it), then binds it to this ServiceAccount.
  await agentIdentity(admin, cp, name);
  await admin.makeApiClient(RbacAuthorizationV1Api).createClusterRoleBinding({
    body: {
      metadata: { name: 'fault-apf-agent' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'virtgate-test-agent' },
      subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: THROTTLE_NAMESPACE }],
    },
  });
  const identity = await podBoundIdentity(admin, cp, THROTTLE_NAMESPACE, 'agent', name);
  return kubeconfigVia(identity.kubeconfig, proxy.url, path.join(cp.dir, 'fault-throttle-via-proxy.kubeconfig'));
}

beforeAll(async () => {
  await installCrd(admin);
  proxy = await RecordingProxy.start(cp.server, PKI);
  webhook = await startSlowWebhook(PKI, 6_000);
  node = await prepareFaultNode(admin, cp, NAME, 'al2023', { kubeconfig: throttledAgentKubeconfig });
  ({ priorityLevelUid, neighbourKubeconfig } = await throttleServiceAccounts(admin, cp, ['agent'], webhook.url));
  agent = await runFaultAgent(node);
  await settle('the first verdict', async () => publishedMismatches(admin, node, await truthOf(node)), 60_000);
  // The API server applies new FlowSchemas asynchronously: wait until it classifies the agent's requests into the level.
  await waitFor('the agent to be classified into the throttled priority level', async () =>
    proxy.exchanges.some((exchange) => exchange.priorityLevelUid === priorityLevelUid) ? true : undefined, 30_000);
});

afterAll(async () => {
  await agent?.stop();
  await removeThrottle(admin);
  await proxy?.close();
  await webhook?.close();
});

/** Each 429 the agent got on a non-watch request, with when its next non-watch request came. */
function retries(exchanges: readonly Exchange[]): Array<{ at: number; retryAfterSeconds: number; nextAfterMs: number | null; path: string }> {
  const requests = exchanges.filter((exchange) => !exchange.watch).sort((a, b) => a.at - b.at);
  return requests
    .map((exchange, index) => ({ exchange, next: requests[index + 1] }))
    .filter(({ exchange }) => exchange.status === 429)
    .map(({ exchange, next }) => ({
      at: exchange.at,
      retryAfterSeconds: exchange.retryAfterSeconds ?? 0,
      nextAfterMs: next ? next.at - exchange.at : null,
      path: `${exchange.method} ${exchange.path.split('?')[0]}`,
    }));
}

describe('429 from API Priority and Fairness', () => {
  it('honours Retry-After on every retry, does not hammer, and publishes the change once the throttling ends', async () => {
    const fault = new Fault('apiserver-429', 'API Priority and Fairness rejecting the agent');
    const kc = new KubeConfig();
    kc.loadFromFile(neighbourKubeconfig);
    const neighbour = new NoisyNeighbour(kc);
    try {
      const pids = pidsOf([{ label: 'agent', child: agent.child, logs: agent.logs, startedMessage: 'virtgate agent started' }]);
      const first = proxy.exchanges.length;
      neighbour.start(8);
      fault.injected();
      await removeDevice(node.host.root, 'kvm');
      // Long enough for several probe cycles (10 s) and retries to meet the throttle.
      await sleep(30_000);
      await neighbour.stop();
      fault.cleared();
      await fault.converge(() => settle('the change to be published', async () => publishedMismatches(admin, node, await truthOf(node)), 90_000));

      const during = proxy.exchanges.slice(first);
      const rejected = retries(during);
      const early = rejected.filter((retry) => retry.nextAfterMs !== null && retry.nextAfterMs < retry.retryAfterSeconds * 1000 - 250);
      const watchRejections = during.filter((exchange) => exchange.watch && exchange.status === 429).length;
      const maxRetryAfter = Math.max(0, ...rejected.map((retry) => retry.retryAfterSeconds));
      fault.bound(throttledRecoveryBound(maxRetryAfter));
      fault.detail(
        `${rejected.length} requests rejected with 429 (Retry-After up to ${maxRetryAfter} s), ${early.length} retried early; ` +
          `${watchRejections} watch 429s; neighbour held the seat ${neighbour.held}×, ${neighbour.rejected} of its reads rejected`,
      );
      const counted = await census(admin, [{ name: NAME, labels: node.foreignLabels, taints: node.foreignTaints, report: true }]);
      fault.objects(counted.checked, counted.lost.length);

      // The real server did the rejecting, from the level set up for it.
      expect(rejected.length).toBeGreaterThan(0);
      expect(during.filter((exchange) => exchange.status === 429).every((exchange) => exchange.priorityLevelUid === priorityLevelUid)).toBe(true);
      expect(rejected.every((retry) => retry.retryAfterSeconds >= 1)).toBe(true);
      // Retry-After honoured: no request came back sooner than the server asked.
      expect(early, JSON.stringify(early)).toEqual([]);
      await settle('the agent\'s readiness to recover', () => unreadyAgent(agent, 'agent'), 60_000);
      expect(counted.lost).toEqual([]);
      expect(crashes([{ label: 'agent', child: agent.child, logs: agent.logs, startedMessage: 'virtgate agent started' }], pids)).toEqual([]);
    } finally {
      await neighbour.stop().catch(() => undefined);
      fault.finish();
    }
  });
});
