/**
 * The ledger can show a loss. A foreign label is removed by the test itself, behind the agent's
 * back, after the agent's last write (a foreign label is not the agent's to restore, so nothing
 * can put it back): the census must count exactly that one object lost, and the summary the
 * suite closes with must fail the run. The entry goes to a ledger of its own, so the suite's real
 * ledger (and its own verdict of 0 lost) is untouched.
 *
 * It can show a shrink and a recovery that was not timed too, with real host changes under the
 * same agent, each its own row: a class holding one injection where its table asks for two fails
 * the run (and passes once the second is there); an injection whose test gave up before the
 * state recovered fails it even with nothing lost.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { removeDevice, restoreDevice } from '../lab/hosts/build-host.ts';
import type { AgentProcess } from '../lab/processes/launch.ts';
import { installCrd } from '../lab/support/crds.ts';
import { type FaultNode, prepareFaultNode, runFaultAgent } from './fault-nodes.ts';
import { closeLedger } from './global-setup.ts';
import { Fault, LEDGER_FILE } from './ledger.ts';
import { hostChangeBound } from './recovery-bounds.ts';
import { settle } from './settle.ts';
import { census } from './survivors.ts';
import { publishedMismatches, truthOf } from './truth.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const NAME = 'fault-ledger-self';
const SELF = 'test/faults/ledger-self-test.test.ts';
const HOST_CHANGE = hostChangeBound({ pollSeconds: 0.25 });

let node: FaultNode;
let agent: AgentProcess | undefined;
let dir = '';

beforeAll(async () => {
  await installCrd(admin);
  node = await prepareFaultNode(admin, cp, NAME, 'intel-metal');
  agent = await runFaultAgent(node);
  await settle('the agent to publish the expected verdict', async () => publishedMismatches(admin, node, await truthOf(node)), 60_000);
  dir = await mkdtemp(path.join(os.tmpdir(), 'virtgate-ledger-self-'));
});

afterAll(async () => {
  await agent?.stop();
  await core.deleteNode({ name: NAME }).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('the fault ledger itself', () => {
  it('counts a foreign label removed behind the agent\'s back as 1 object lost, and the summary fails the run', async () => {
    const fault = new Fault('ledger-self-test', 'a foreign label removed behind the agent', path.join(dir, LEDGER_FILE));
    const [key, value] = Object.entries(node.foreignLabels)[0] ?? [];
    if (!key) throw new Error('the fault node has no foreign label');
    try {
      // An input of the census, not a cluster fault: nothing is recovered, the loss is the point.
      fault.tried();
      await core.patchNode({ name: NAME, body: { metadata: { labels: { [key]: null } } } }, mergePatch);
      fault.handled();
      const counted = await census(admin, [{ name: NAME, labels: node.foreignLabels, taints: node.foreignTaints, report: true }]);
      fault.objects(counted.checked, counted.lost.length);
      expect(counted.lost).toEqual([`label ${key}=${value} on ${NAME}`]);
      expect(counted.checked).toBe(1 + Object.keys(node.foreignLabels).length + node.foreignTaints.length + 1);
    } finally {
      fault.finish();
    }

    // Put back, so the census of the tests below counts nothing lost.
    await core.patchNode({ name: NAME, body: { metadata: { labels: { [key]: value ?? null } } } }, mergePatch);

    let out = '';
    let err = '';
    // Its own table of classes: the run's would call this kind unknown.
    const classes = { 'ledger-self-test': { group: 'input' as const, minimum: 1, file: SELF } };
    const code = await closeLedger(dir, (text) => (out += text), (text) => (err += text), { classes, ranFiles: [SELF] });
    expect(code).toBe(1);
    expect(out).toMatch(/ledger-self-test\s+1\s+1\s+0\/1\s+—\s+—\s+—\s+\d+\s+1/);
    expect(out).toContain('OBJECTS LOST: 1');
    expect(err).toBe('virtgate fault suite: FAILED: 1 object(s) lost, 1 fault(s) did not recover in ledger-self-test (a foreign label removed behind the agent)\n');
  });

  /** One host change under the agent, as a row of `ledgerDir`'s ledger; `giveUp` stops before its recovery is timed. */
  async function hostChange(ledgerDir: string, test: string, change: () => Promise<void>, giveUp = false): Promise<void> {
    const fault = new Fault('ledger-self-test-host', test, path.join(ledgerDir, LEDGER_FILE));
    fault.bound(HOST_CHANGE);
    try {
      await change();
      fault.injected();
      fault.cleared();
      if (giveUp) throw new Error('gave up before the state recovered');
      await fault.converge(() => settle(test, async () => publishedMismatches(admin, node, await truthOf(node)), 2 * HOST_CHANGE.ms, 250));
    } catch (error) {
      if (!giveUp) throw error;
    } finally {
      const counted = await census(admin, [{ name: NAME, labels: node.foreignLabels, taints: node.foreignTaints, report: true }]);
      fault.objects(counted.checked, counted.lost.length);
      fault.finish();
    }
  }

  const close = async (ledgerDir: string, minimum: number) => {
    let out = '';
    let err = '';
    const classes = { 'ledger-self-test-host': { group: 'cluster' as const, minimum, file: SELF } };
    const code = await closeLedger(ledgerDir, (text) => (out += text), (text) => (err += text), { classes, ranFiles: [SELF] });
    return { code, out, err };
  };

  it('fails the run when a class holds fewer injections than its minimum (a shrunken test), and passes it with all of them', async () => {
    const ledgerDir = await mkdtemp(path.join(dir, 'shrink-'));
    await hostChange(ledgerDir, '/dev/kvm removed', () => removeDevice(node.host.root, 'kvm'));
    const shrunk = await close(ledgerDir, 2);
    expect(shrunk.code).toBe(1);
    expect(shrunk.out).toMatch(/ledger-self-test-host\s+1\s+2\s+1\/1\s+\d+\.\d s/);
    expect(shrunk.err).toBe('virtgate fault suite: FAILED: ledger-self-test-host: 1 injected, fewer than its minimum 2\n');

    await hostChange(ledgerDir, '/dev/kvm restored', () => restoreDevice(node.host.root, 'kvm'));
    const whole = await close(ledgerDir, 2);
    expect(whole.err).toBe('');
    expect(whole.code).toBe(0);
    expect(whole.out).toMatch(/ledger-self-test-host\s+2\s+2\s+2\/2/);
    expect(whole.out).toContain('every fault recovered within its bound; every class at its minimum');
  });

  it('fails the run for an injection whose recovery was never timed, with nothing lost', async () => {
    const ledgerDir = await mkdtemp(path.join(dir, 'untimed-'));
    try {
      await hostChange(ledgerDir, '/dev/kvm removed, its recovery not awaited', () => removeDevice(node.host.root, 'kvm'), true);
    } finally {
      await restoreDevice(node.host.root, 'kvm');
      await settle('the agent to publish the intact host again', async () => publishedMismatches(admin, node, await truthOf(node)), 2 * HOST_CHANGE.ms, 250);
    }
    const untimed = await close(ledgerDir, 1);
    expect(untimed.code).toBe(1);
    expect(untimed.out).toMatch(/ledger-self-test-host\s+1\s+1\s+0\/1\s+—\s+—/);
    expect(untimed.out).toContain('objects lost: 0; 1 NOT RECOVERED');
    expect(untimed.err).toBe(
      'virtgate fault suite: FAILED: 1 fault(s) did not recover, ledger-self-test-host: recovery not timed against a bound in /dev/kvm removed, its recovery not awaited (no recovery measured) in ledger-self-test-host (/dev/kvm removed, its recovery not awaited)\n',
    );
  });
});
