/**
 * The control plane dies under a running fleet (three real agents on fixture hosts and a real
 * aggregator, all processes): kube-apiserver SIGKILLed in the middle of the agents' writes of a
 * verdict change, SIGKILLed under the aggregator's watches while the hosts change, etcd SIGKILLed
 * mid-write, and etcd stopped gracefully for a while. Each time the published state converges to
 * what the hosts really are (and the aggregator says the same) within a bound computed from the
 * settings (recovery-bounds.ts), no foreign label or taint is lost, nothing crashed or restarted,
 * and readiness recovers. A kill is always SIGKILL; the graceful stop is its own class.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { removeDevice, restoreDevice } from '../lab/hosts/build-host.ts';
import { AGENT_NAMESPACE, AGENT_SERVICE_ACCOUNT } from '../lab/support/agent-identity.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { Fleet } from './fleet.ts';
import { Fault } from './ledger.ts';
import { fleetRecoveryBound } from './recovery-bounds.ts';
import { settle, sleep } from './settle.ts';
import { meaningChanged, truthFor } from './truth.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const NAMES = ['fault-restart-a', 'fault-restart-b', 'fault-restart-c'];
const AGENT_USER = `system:serviceaccount:${AGENT_NAMESPACE}:${AGENT_SERVICE_ACCOUNT}`;
let fleet: Fleet;

/** The agents' completed writes since `mark`, by node (their pod-bound tokens carry the node name). */
async function agentWrites(mark: number): Promise<Map<string, string[]>> {
  const writes = new Map<string, string[]>();
  for (const event of await cp.audit.since(mark)) {
    const node = event.user.extra?.['authentication.kubernetes.io/node-name']?.[0];
    if (event.user.username !== AGENT_USER || !node || !NAMES.includes(node) || !['create', 'patch', 'update'].includes(event.verb)) continue;
    writes.set(node, [...(writes.get(node) ?? []), `${event.objectRef?.resource}${event.objectRef?.subresource ? `/${event.objectRef.subresource}` : ''}`]);
  }
  return writes;
}

const publishFailures = () => fleet.agents.map((agent) => agent.logs.filter((line) => line.decision === 'publish-failed').length);

/**
 * The API server serves again (etcd back behind it): the fault is over for virtgate from here.
 * The wait is reported, not bounded: it is the control plane's own recovery, not virtgate's.
 */
async function apiServing(): Promise<number> {
  const started = Date.now();
  const core = admin.makeApiClient(CoreV1Api);
  await waitFor('the API server to serve again', async () => ((await core.listNamespace({ limit: 1 }).then(() => true, () => false)) ? true : undefined), 90_000, 100);
  return Date.now() - started;
}

/** Per agent, from the log line `from` on: a publish that failed, and a later one that succeeded. */
/** Whether any agent logged a failed publish since `from` (log lengths per agent). */
function failedSince(from: number[]): boolean {
  return fleet.agents.some((agent, index) => agent.logs.slice(from[index] ?? 0).some((line) => line.decision === 'publish-failed'));
}

function failedThenSucceeded(from: number[]): string[] {
  return fleet.agents.flatMap((agent, index) => {
    const lines = agent.logs.slice(from[index] ?? 0);
    const failed = lines.findIndex((line) => line.decision === 'publish-failed');
    const recovered = failed >= 0 && lines.slice(failed).some((line) => line.decision === 'recovered');
    return recovered ? [`${fleet.nodes[index]?.name}: ${String(lines[failed]?.err)} → recovered`] : [];
  });
}

beforeAll(async () => {
  await installCrd(admin);
  fleet = await Fleet.start(admin, cp, { names: NAMES, profile: 'intel-metal' });
  await settle('the fleet to publish its first verdicts', () => fleet.mismatches(), 60_000);
});

afterAll(async () => {
  // Whatever happened, leave the control plane up for the files after this one.
  await cp.control('etcd/start').catch(() => undefined);
  await cp.control('apiserver/start').catch(() => undefined);
  await fleet?.stop();
});

describe('control-plane restarts under a running fleet', () => {
  it('kube-apiserver SIGKILLed while the agents write a verdict change: converges, nothing lost', async () => {
    const fault = new Fault('apiserver-kill', 'during agent writes');
    fault.bound(fleetRecoveryBound());
    try {
      const failuresBefore = publishFailures();
      const mark = await cp.audit.mark();
      // /dev/kvm goes on every host: each agent publishes hardware → emulation at its next probe.
      for (const node of fleet.nodes) await removeDevice(node.host.root, 'kvm');
      await waitFor('the first agent write of the change', async () => ((await agentWrites(mark)).size > 0 ? true : undefined), 30_000, 20);
      fleet.startForeignWriters();
      await cp.control('apiserver/kill');
      fault.injected();
      const landed = await agentWrites(mark);
      // Down long enough for the other agents' probes (10 s interval) to try and fail.
      await sleep(6_000);
      await cp.control('apiserver/start');
      fault.cleared();

      const { crashed, lost } = await fleet.recover(fault);
      const failed = publishFailures().map((count, index) => count - (failuresBefore[index] ?? 0));
      const detail = `writes landed before the kill: ${[...landed].map(([node, kinds]) => `${node} ${kinds.join(',')}`).join('; ')}; publishes failed meanwhile: ${failed.join('/')}`;
      fault.detail(detail);
      expect(crashed).toEqual([]);
      expect(lost).toEqual([]);
      // The kill really cut into publishing: some agent's publish failed and was retried.
      expect(failed.some((count) => count > 0), detail).toBe(true);
    } finally {
      fault.finish();
    }
  });

  it('kube-apiserver SIGKILLed under the aggregator\'s watches while the hosts change: /readyz goes false, then all converges', async () => {
    const fault = new Fault('apiserver-kill', 'during aggregator watches');
    fault.bound(fleetRecoveryBound());
    try {
      fleet.startForeignWriters();
      await cp.control('apiserver/kill');
      fault.injected();
      // The hosts change while the server is gone: nothing can be written or watched now.
      for (const node of fleet.nodes) await restoreDevice(node.host.root, 'kvm');
      const broken = await waitFor('the aggregator to report its watches broken', async () => {
        const response = await fleet.aggregator.get('/readyz');
        return response.status === 503 ? (await response.text()).trim() : undefined;
      }, 30_000, 250);
      expect(broken).toMatch(/^watch broken: /);
      // The last-known report is still served while broken.
      expect((await fleet.aggregator.get('/api/v1/nodes')).status).toBe(200);
      await sleep(4_000);
      await cp.control('apiserver/start');
      fault.cleared();

      const { crashed, lost } = await fleet.recover(fault);
      expect(crashed).toEqual([]);
      expect(lost).toEqual([]);
      const watches = (await (await fleet.aggregator.get('/api/v1/summary')).json()) as { aggregator: { watches: Array<{ kind: string; healthy: boolean }> } };
      expect(watches.aggregator.watches.every((watch) => watch.healthy)).toBe(true);
    } finally {
      fault.finish();
    }
  });

  it('etcd stopped gracefully (SIGTERM) for 8 s while a verdict changes, then started: the API server and everything behind it recover', async () => {
    // Not a kill: etcd gets SIGTERM and up to 5 s to shut down cleanly, as in a planned restart.
    const fault = new Fault('etcd-graceful-stop', 'etcd stopped with SIGTERM for 8 s, then started');
    fault.bound(fleetRecoveryBound());
    try {
      const failuresBefore = publishFailures();
      fleet.startForeignWriters();
      await cp.control('etcd/stop');
      fault.injected();
      for (const node of fleet.nodes) await removeDevice(node.host.root, 'kvm');
      await sleep(8_000);
      await cp.control('etcd/start');
      const apiBackMs = await apiServing();
      fault.cleared();

      const { crashed, lost } = await fleet.recover(fault);
      const failed = publishFailures().map((count, index) => count - (failuresBefore[index] ?? 0));
      fault.detail(`publishes failed during the outage: ${failed.join('/')}; API serving ${(apiBackMs / 1000).toFixed(1)} s after etcd started`);
      expect(crashed).toEqual([]);
      expect(lost).toEqual([]);
      expect(failed.some((count) => count > 0)).toBe(true);
    } finally {
      fault.finish();
    }
  });

  it('etcd SIGKILLed while the agents write a verdict change, restarted on the same data directory: a write was in flight, nothing changed meaning, converges', async () => {
    const fault = new Fault('etcd-kill', 'SIGKILL during agent writes');
    fault.bound(fleetRecoveryBound());
    try {
      const failuresBefore = publishFailures();
      const mark = await cp.audit.mark();
      // The hosts get /dev/kvm back: each agent publishes emulation → hardware at its next probe.
      for (const node of fleet.nodes) await restoreDevice(node.host.root, 'kvm');
      await waitFor('the first agent write of the change', async () => ((await agentWrites(mark)).size > 0 ? true : undefined), 30_000, 20);
      fleet.startForeignWriters();
      const logsAtKill = fleet.agents.map((agent) => agent.logs.length);
      await cp.control('etcd/kill');
      fault.injected();
      const landed = await agentWrites(mark);
      // Down until an agent's publish has failed for it (at its next probe, 10 s interval, after its
      // 5 s request timeout), at least 6 s: a fixed outage could end before any agent tried, on a
      // loaded machine, and then there was nothing in flight to prove anything about.
      await sleep(6_000);
      await waitFor('an agent publish to fail while etcd is down', async () => (failedSince(logsAtKill) ? true : undefined), 30_000, 100);
      await cp.control('etcd/start');
      const apiBackMs = await apiServing();
      // Straight after the restart, before the agents publish again: every published object still
      // says the old verdict or the new one (what etcd acknowledged survived, nothing half-made).
      const changedMeaning = (
        await Promise.all(fleet.nodes.map((node) => meaningChanged(admin, node, truthFor(node, 'withoutKvm'), truthFor(node, 'intact'))))
      ).flat();
      fault.cleared();

      const { crashed, lost } = await fleet.recover(fault);
      const failed = publishFailures().map((count, index) => count - (failuresBefore[index] ?? 0));
      const inFlight = failedThenSucceeded(logsAtKill);
      fault.detail(
        `writes landed before the kill: ${[...landed].map(([node, kinds]) => `${node} ${kinds.join(',')}`).join('; ')}; publishes failed meanwhile: ${failed.join('/')}; ` +
          `failed then succeeded: ${inFlight.join('; ') || 'none'}; API serving ${(apiBackMs / 1000).toFixed(1)} s after etcd started`,
      );
      expect(crashed).toEqual([]);
      expect(lost).toEqual([]);
      expect(changedMeaning).toEqual([]);
      // A write was in flight: an agent's publish failed once etcd was gone, and a later one succeeded.
      expect(inFlight.length, 'agents whose publish failed after the kill and later succeeded').toBeGreaterThan(0);
    } finally {
      fault.finish();
    }
  });
});
