/**
 * The ledger can show a loss. A foreign label is removed by the test itself, behind the agent's
 * back, after the agent's last write (a foreign label is not the agent's to restore, so nothing
 * can put it back): the census must count exactly that one object lost, and the summary the
 * suite closes with must fail the run. The entry goes to a ledger of its own, so the suite's real
 * ledger (and its own verdict of 0 lost) is untouched.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import type { AgentProcess } from '../lab/processes/launch.ts';
import { installCrd } from '../lab/support/crds.ts';
import { type FaultNode, prepareFaultNode, runFaultAgent } from './fault-nodes.ts';
import { closeLedger } from './global-setup.ts';
import { Fault, LEDGER_FILE } from './ledger.ts';
import { settle } from './settle.ts';
import { census } from './survivors.ts';
import { publishedMismatches, truthOf } from './truth.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const NAME = 'fault-ledger-self';

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
      fault.injected();
      await core.patchNode({ name: NAME, body: { metadata: { labels: { [key]: null } } } }, mergePatch);
      fault.handled();
      const counted = await census(admin, [{ name: NAME, labels: node.foreignLabels, taints: node.foreignTaints, report: true }]);
      fault.objects(counted.checked, counted.lost.length);
      expect(counted.lost).toEqual([`label ${key}=${value} on ${NAME}`]);
      expect(counted.checked).toBe(1 + Object.keys(node.foreignLabels).length + node.foreignTaints.length + 1);
    } finally {
      fault.finish();
    }

    let out = '';
    let err = '';
    // Its own table of classes: the run's would call this kind unknown.
    const classes = { 'ledger-self-test': { group: 'input' as const, minimum: 1, file: 'test/faults/ledger-self-test.test.ts' } };
    const code = await closeLedger(dir, (text) => (out += text), (text) => (err += text), { classes, ranFiles: [classes['ledger-self-test'].file] });
    expect(code).toBe(1);
    expect(out).toMatch(/ledger-self-test\s+1\s+1\s+0\/1\s+—\s+—\s+—\s+\d+\s+1/);
    expect(out).toContain('OBJECTS LOST: 1');
    expect(err).toBe('virtgate fault suite: FAILED: 1 object(s) lost, 1 fault(s) did not recover in ledger-self-test (a foreign label removed behind the agent)\n');
  });
});
