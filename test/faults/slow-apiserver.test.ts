/**
 * The API server slow: agents and the aggregator reach it only through DelayingProxy, a fake
 * standing in for a slow network or an overloaded API server (the real kube-apiserver cannot be
 * made slow on demand). With every chunk held 4 s, a request takes longer than the 2 s request
 * timeout: it times out and is retried, nothing crashes, and once the delay is removed the
 * verdict change made meanwhile is published and seen by the aggregator.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { removeDevice } from '../lab/hosts/build-host.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { DelayingProxy } from './delaying-proxy.ts';
import { Fleet } from './fleet.ts';
import { kubeconfigVia } from './kubeconfig-via.ts';
import { Fault } from './ledger.ts';
import { fleetRecoveryBound } from './recovery-bounds.ts';
import { settle } from './settle.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
/** Both programs' request timeout here: below the proxy's 4 s delay per chunk. */
const REQUEST_TIMEOUT_SECONDS = 2;
let proxy: DelayingProxy;
let fleet: Fleet;

const timeouts = (logs: ReadonlyArray<Record<string, unknown>>) =>
  logs.filter((line) => line.decision === 'publish-failed' && /timed out/.test(String(line.err))).length;

beforeAll(async () => {
  await installCrd(admin);
  proxy = await DelayingProxy.start(cp.server);
  fleet = await Fleet.start(admin, cp, {
    names: ['fault-slow-a', 'fault-slow-b'],
    profile: 'amd-metal',
    agentArgs: ['--request-timeout', `${REQUEST_TIMEOUT_SECONDS}s`],
    agentKubeconfig: (node) => kubeconfigVia(node.kubeconfig, proxy.url, path.join(cp.dir, `${node.name}-via-proxy.kubeconfig`)),
    aggregatorKubeconfig: await kubeconfigVia(cp.adminKubeconfig, proxy.url, path.join(cp.dir, 'fault-slow-aggregator.kubeconfig')),
    aggregatorArgs: ['--request-timeout', `${REQUEST_TIMEOUT_SECONDS}s`],
  });
  await settle('the fleet to publish through the proxy', () => fleet.mismatches(), 60_000);
});

afterAll(async () => {
  await fleet?.stop();
  await proxy?.close();
});

describe('a slow API server (through a delaying proxy)', () => {
  it('times requests out and retries them, crashes nothing, and converges once the delay is gone', async () => {
    const fault = new Fault('apiserver-slow', '4 s per chunk against a 2 s request timeout');
    fault.bound(fleetRecoveryBound({ agentRequestTimeoutSeconds: REQUEST_TIMEOUT_SECONDS, aggregatorRequestTimeoutSeconds: REQUEST_TIMEOUT_SECONDS }));
    try {
      const connectionsBefore = proxy.accepted;
      proxy.setDelay(4_000);
      // A blip as the slowness starts: every client must reconnect through the slow path.
      proxy.resetAll();
      fleet.startForeignWriters();
      fault.injected();
      for (const node of fleet.nodes) await removeDevice(node.host.root, 'kvm');
      // Each agent probes every 10 s; its publish times out (2 s) and is retried with backoff.
      await waitFor(
        'both agents to time out and retry',
        async () => (fleet.agents.every((agent) => timeouts(agent.logs) >= 2) ? true : undefined),
        60_000,
        500,
      );
      const slowTimeouts = fleet.agents.map((agent) => timeouts(agent.logs));
      // Liveness never waits on the API server.
      for (const agent of fleet.agents) expect((await fetch(`http://127.0.0.1:${agent.port}/healthz`)).status).toBe(200);
      expect((await fleet.aggregator.get('/healthz')).status).toBe(200);
      proxy.setDelay(0);
      fault.cleared();

      const { crashed, lost } = await fleet.recover(fault);
      fault.detail(`request timeouts per agent while slow: ${slowTimeouts.join('/')}; connections through the proxy: ${proxy.accepted - connectionsBefore}`);
      expect(crashed).toEqual([]);
      expect(lost).toEqual([]);
      // The published change went through the proxy, not around it.
      expect(proxy.accepted).toBeGreaterThan(connectionsBefore);
    } finally {
      fault.finish();
    }
  });
});
