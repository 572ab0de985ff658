/**
 * The verdict never flips on `error`, and does flip on a real change, through the real agent:
 * when /dev/kvm cannot even be inspected (a symlink loop: stat fails with ELOOP) and
 * proc/cpuinfo is a FIFO, the tier checks are `error`, the agent keeps the published verdict
 * (condition reason VerdictHeld) and writes no label; when /dev/kvm really vanishes mid-run, the
 * labels, condition and report flip within an interval, and flip back when it returns.
 *
 * Every injection is its own ledger row, timed from its own end: the two probe errors are undone
 * one at a time (the hold then names the one left), and the removal and the return of /dev/kvm
 * are two host changes.
 */
import { copyFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_GROUP, API_VERSION, CONDITION_TYPE, NODE_VALIDATION_PLURAL, nodeKeys } from '../../core/kube/names.ts';
import type { NodeValidation } from '../../core/report/schema.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { removeDevice, restoreDevice } from '../lab/hosts/build-host.ts';
import { AGENT_NAMESPACE, AGENT_SERVICE_ACCOUNT } from '../lab/support/agent-identity.ts';
import type { AgentProcess } from '../lab/processes/launch.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { type FaultNode, prepareFaultNode, runFaultAgent } from './fault-nodes.ts';
import { fifo, symlinkLoop } from './host-mutations.ts';
import { Fault } from './ledger.ts';
import { hostChangeBound } from './recovery-bounds.ts';
import { crashes, pidsOf } from './processes.ts';
import { settle } from './settle.ts';
import { census } from './survivors.ts';
import { publishedMismatches, truthOf } from './truth.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const keys = nodeKeys();
const NAME = 'fault-kvm';
// A host change is published within one probe interval and a publish (recovery-bounds.ts); the
// waits run to twice that, so a slow recovery is measured and fails the run by its bound.
const HOST_CHANGE = hostChangeBound({ pollSeconds: 0.25 });
const WITHIN_AN_INTERVAL_MS = 2 * HOST_CHANGE.ms;
let node: FaultNode;
let agent: AgentProcess;
let pids: Array<number | undefined>;

const watched = () => [{ label: 'agent', child: agent.child, logs: agent.logs, startedMessage: 'virtgate agent started' }];
const condition = async () => (await core.readNode({ name: NAME })).status?.conditions?.find((c) => c.type === CONDITION_TYPE);
const report = async () => (await custom.getClusterCustomObject({ group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: NAME })) as NodeValidation;

async function labelWrites(mark: number): Promise<number> {
  return (await cp.audit.since(mark)).filter(
    (event) =>
      event.user.username === `system:serviceaccount:${AGENT_NAMESPACE}:${AGENT_SERVICE_ACCOUNT}` &&
      event.user.extra?.['authentication.kubernetes.io/node-name']?.[0] === NAME &&
      event.verb === 'patch' &&
      event.objectRef?.resource === 'nodes' &&
      !event.objectRef.subresource,
  ).length;
}

async function survivors(fault: Fault): Promise<string[]> {
  const counted = await census(admin, [{ name: NAME, labels: node.foreignLabels, taints: node.foreignTaints, report: true }]);
  fault.objects(counted.checked, counted.lost.length);
  return counted.lost;
}

beforeAll(async () => {
  await installCrd(admin);
  node = await prepareFaultNode(admin, cp, NAME, 'intel-metal');
  agent = await runFaultAgent(node);
  pids = pidsOf(watched());
  await settle('the first verdict', async () => publishedMismatches(admin, node, await truthOf(node)), 60_000);
});

afterAll(async () => {
  await agent?.stop();
});

describe('the published verdict and probe errors', () => {
  it('holds the verdict (VerdictHeld) while /dev/kvm cannot be inspected and proc/cpuinfo is a FIFO; writes no label; follows each error undone', async () => {
    const loop = new Fault('probe-error', '/dev/kvm a symlink loop (ELOOP) under the agent');
    const cpuFifo = new Fault('probe-error', 'proc/cpuinfo a FIFO under the agent');
    for (const fault of [loop, cpuFifo]) fault.bound(HOST_CHANGE);
    const cpuinfo = path.join(node.host.root, 'proc/cpuinfo');
    try {
      await copyFile(cpuinfo, `${cpuinfo}.intact`);
      const mark = await cp.audit.mark();
      await symlinkLoop('dev/kvm')(node.host.root);
      loop.injected();
      await fifo('proc/cpuinfo')(node.host.root);
      cpuFifo.injected();
      // A probe may fall between the two mutations and hold the verdict for dev.kvm alone: wait for
      // the one that saw both.
      const held = await waitFor('the condition to say VerdictHeld for dev.kvm and cpu.virtualization', async () => {
        const current = await condition();
        return current?.reason === 'VerdictHeld' && /dev\.kvm:/.test(current.message ?? '') && /cpu\.virtualization:/.test(current.message ?? '') ? current : undefined;
      }, WITHIN_AN_INTERVAL_MS, 250);
      expect(held.status).toBe('True');
      expect(held.message).toMatch(/dev\.kvm:/);
      expect(held.message).toMatch(/cpu\.virtualization:/);
      const labels = (await core.readNode({ name: NAME })).metadata?.labels ?? {};
      expect(labels).toMatchObject({ [keys.labels.ready]: 'true', [keys.labels.tier]: 'hardware', [keys.familyLabel('kvm')]: 'true' });
      const status = (await report()).status;
      expect(status).toMatchObject({ ready: true, tier: 'hardware', conclusive: false });
      expect(status?.checks.find((check) => check.id === 'dev.kvm')).toMatchObject({ status: 'error', message: expect.stringMatching(/ELOOP/) });
      expect(await labelWrites(mark)).toBe(0);
      expect(agent.logs.some((line) => line.decision === 'hold')).toBe(true);

      // The loop undone first: the verdict is still held, now for cpu.virtualization alone, and the
      // report reads /dev/kvm as the hand-written verdict says.
      await restoreDevice(node.host.root, 'kvm');
      loop.cleared();
      const truth = await truthOf(node);
      await loop.converge(() =>
        waitFor(
          'the hold to name cpu.virtualization alone and the report to read dev.kvm again',
          async () => {
            const current = await condition();
            const kvmCheck = (await report()).status?.checks.find((check) => check.id === 'dev.kvm');
            const holdsForCpuAlone = current?.reason === 'VerdictHeld' && !/dev\.kvm:/.test(current.message ?? '') && /cpu\.virtualization:/.test(current.message ?? '');
            return holdsForCpuAlone && kvmCheck?.status === truth.checks['dev.kvm'] ? true : undefined;
          },
          WITHIN_AN_INTERVAL_MS,
          250,
        ),
      );
      expect((await report()).status).toMatchObject({ ready: true, tier: 'hardware', conclusive: false });
      expect(await labelWrites(mark)).toBe(0);

      // Over the FIFO (copying into it would block): the intact file takes its place.
      await rename(`${cpuinfo}.intact`, cpuinfo);
      cpuFifo.cleared();
      // The condition and the report are two writes of one publish: wait for both.
      await cpuFifo.converge(() =>
        waitFor(
          'the condition to be decided again and the report to follow',
          async () => ((await condition())?.reason === 'HardwareVirtualization' && (await publishedMismatches(admin, node, truth)).length === 0 ? true : undefined),
          WITHIN_AN_INTERVAL_MS,
          250,
        ),
      );
      expect(await publishedMismatches(admin, node, truth)).toEqual([]);
      expect(await labelWrites(mark)).toBe(0);
      // One census after both: the state both errors could have harmed.
      expect(await survivors(cpuFifo)).toEqual([]);
      expect(crashes(watched(), pids)).toEqual([]);
    } finally {
      loop.finish();
      cpuFifo.finish();
    }
  });

  it('flips within an interval when /dev/kvm really vanishes, and back when it returns', async () => {
    const removed = new Fault('kvm-vanish', '/dev/kvm removed mid-run');
    const restored = new Fault('kvm-vanish', '/dev/kvm restored');
    for (const fault of [removed, restored]) fault.bound(HOST_CHANGE);
    try {
      await removeDevice(node.host.root, 'kvm');
      removed.injected();
      removed.cleared();
      expect(await truthOf(node)).toMatchObject({ ready: false, tier: 'emulation', kvm: 'false' });
      await removed.converge(() => settle('the flip to emulation', async () => publishedMismatches(admin, node, await truthOf(node)), WITHIN_AN_INTERVAL_MS, 250));
      expect((await condition())?.reason).toBe('NoHardwareVirtualization');

      await restoreDevice(node.host.root, 'kvm');
      restored.injected();
      restored.cleared();
      await restored.converge(() => settle('the flip back to hardware', async () => publishedMismatches(admin, node, await truthOf(node)), WITHIN_AN_INTERVAL_MS, 250));
      // One census after both changes.
      expect(await survivors(restored)).toEqual([]);
      expect(crashes(watched(), pids)).toEqual([]);
    } finally {
      removed.finish();
      restored.finish();
    }
  });
});
