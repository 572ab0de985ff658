/**
 * virt-host-validate misbehaving, through a fake tool (fake-vhv.ts: the real one cannot hang or
 * flood on demand). Through the real agent: a hanging tool is killed at the timeout with the
 * children it started, its check becomes `error` (not `fail`), the verdict comes from the other
 * checks and the published ready/tier never move (the agent writes nothing to its Node, and its
 * watch of the quiet Node stays open instead of reconnecting every 30 s); a tool
 * flooding well-formed lines must not stop the agent from publishing. Through `virt-host-validate`'s
 * other failures in `virtgate check`: missing (skip), garbage, binary, exit 1 without a FAIL line,
 * not executable (error), each leaving the verdict to the native checks.
 */
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../../core/kube/names.ts';
import type { NodeValidation } from '../../core/report/schema.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { buildHost } from '../lab/hosts/build-host.ts';
import { AGENT_NAMESPACE, AGENT_SERVICE_ACCOUNT } from '../lab/support/agent-identity.ts';
import type { AgentProcess } from '../lab/processes/launch.ts';
import { installCrd } from '../lab/support/crds.ts';
import { waitFor } from '../lab/support/wait.ts';
import { alive, type FakeVhv, fakeVhv, type VhvMode } from './fake-vhv.ts';
import { type FaultNode, prepareFaultNode, runFaultAgent } from './fault-nodes.ts';
import { Fault } from './ledger.ts';
import { hostChangeBound } from './recovery-bounds.ts';
import { crashes, pidsOf } from './processes.ts';
import { runCli } from '../lab/cli.ts';
import { cliEnv } from './child-env.ts';
import { settle } from './settle.ts';
import { census } from './survivors.ts';
import { publishedMismatches, truthOf } from './truth.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const custom = admin.makeApiClient(CustomObjectsApi);
const NAME = 'fault-vhv';
/** The agent's --vhv-timeout here: the hanging tool is killed after it. */
const VHV_TIMEOUT_SECONDS = 2;
// The libvirt 9.0 recording the fake replays in `pass` mode: 13 lines, two WARN (IOMMU, secure guest).
const isRecorded = (check: { status: string; message: string } | undefined) => check?.status === 'warn' && check.message.startsWith('13 checks, 0 FAIL');
let node: FaultNode;
let tool: FakeVhv;
let agent: AgentProcess;
let pids: Array<number | undefined>;
/** The audit log offset once the agent has published: from then on its Node does not change. */
let quietSince = 0;

const watched = () => [{ label: 'agent', child: agent.child, logs: agent.logs, startedMessage: 'virtgate agent started' }];
const report = async () => (await custom.getClusterCustomObject({ group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: NAME })) as NodeValidation;
const vhvCheck = async () => (await report()).status?.checks.find((check) => check.id === 'virt-host-validate');

/** The agent's requests on Nodes since `mark` with this verb. */
async function nodeRequests(mark: number, verb: 'patch' | 'watch'): Promise<string[]> {
  return (await cp.audit.since(mark))
    .filter(
      (event) =>
        event.user.username === `system:serviceaccount:${AGENT_NAMESPACE}:${AGENT_SERVICE_ACCOUNT}` &&
        event.user.extra?.['authentication.kubernetes.io/node-name']?.[0] === NAME &&
        event.verb === verb &&
        event.objectRef?.resource === 'nodes',
    )
    .map((event) => `${event.verb} ${event.objectRef?.resource}/${event.objectRef?.subresource ?? ''} ${event.requestReceivedTimestamp}`);
}

beforeAll(async () => {
  await installCrd(admin);
  tool = await fakeVhv('pass');
  node = await prepareFaultNode(admin, cp, NAME, 'intel-metal');
  agent = await runFaultAgent(node, ['--vhv-timeout', String(VHV_TIMEOUT_SECONDS)], node.kubeconfig, tool.command);
  pids = pidsOf(watched());
  await settle('the first verdict', async () => publishedMismatches(admin, node, await truthOf(node)), 60_000);
  await waitFor('the recording\'s result in the report', async () => (isRecorded(await vhvCheck()) ? true : undefined), 30_000);
  quietSince = await cp.audit.mark();
});

afterAll(async () => {
  await agent?.stop();
});

/** Switches the tool, waits for the report to show `status`, and checks the published verdict never moved. */
async function misbehave(mode: VhvMode, kind: string, status: string, message: RegExp) {
  const fault = new Fault(kind, `virt-host-validate ${mode} under the agent`);
  // The tool's next run comes with the next probe, which waits for it up to --vhv-timeout.
  fault.bound(hostChangeBound({ vhvTimeoutSeconds: VHV_TIMEOUT_SECONDS, pollSeconds: 0.25 }));
  try {
    const mark = await cp.audit.mark();
    await tool.setMode(mode);
    fault.injected();
    const check = await waitFor(`the report to show virt-host-validate ${status} (${message})`, async () => {
      const current = await vhvCheck();
      return current?.status === status && message.test(current.message) ? current : undefined;
    }, 40_000, 250);
    // The verdict still comes from the native checks: nothing published moved.
    expect(await publishedMismatches(admin, node, await truthOf(node))).toEqual([]);
    expect((await report()).status).toMatchObject({ ready: true, tier: 'hardware', conclusive: true });
    expect(await nodeRequests(mark, 'patch')).toEqual([]);
    await tool.setMode('pass');
    fault.cleared();
    await fault.converge(() => waitFor('the recording\'s result again', async () => (isRecorded(await vhvCheck()) ? true : undefined), 40_000, 250));
    const counted = await census(admin, [{ name: NAME, labels: node.foreignLabels, taints: node.foreignTaints, report: true }]);
    fault.objects(counted.checked, counted.lost.length);
    expect(counted.lost).toEqual([]);
    expect(crashes(watched(), pids)).toEqual([]);
    return check;
  } finally {
    fault.finish();
  }
}

describe('virt-host-validate misbehaving under the agent', () => {
  it('hangs: killed at the timeout with its children, error not fail, the published verdict holds', async () => {
    await misbehave('hang', 'vhv-hang', 'error', /did not finish within 2 s and was killed/);
    const hung = await tool.hangPids();
    expect(hung).toHaveLength(2);
    await waitFor('the hanging tool and its child to be gone', async () => ((await Promise.all(hung.map(alive))).some(Boolean) ? undefined : true), 10_000);
  });

  it('floods well-formed lines: the agent keeps publishing', async () => {
    // About 8,000 WARN lines: each is a problem the check's message would name.
    const check = await misbehave('flood', 'vhv-flood', 'warn', /^\d{4,} checks/);
    const size = JSON.stringify(check).length;
    expect(size, 'the virt-host-validate check in the report').toBeLessThan(64 * 1024);
    const failures = agent.logs.filter((line) => line.decision === 'publish-failed');
    expect(failures.map((line) => line.err)).toEqual([]);
  });

  it('through all of it, the Node was left alone: no write, and the agent\'s watch of it was never re-opened', async () => {
    // Over 30 s without a Node event by now. A watch ends (and its audit event appears) only when
    // it is closed: the agent watches its Node for 5 minutes at a time.
    expect(await nodeRequests(quietSince, 'patch')).toEqual([]);
    expect(await nodeRequests(quietSince, 'watch')).toEqual([]);
  });
});

describe('virt-host-validate failing in other ways (virtgate check)', () => {
  it('missing, garbage, binary, exit 1 without FAIL, not executable: never fail, the native checks decide', async () => {
    const host = await buildHost(await mkdtemp(path.join(os.tmpdir(), 'fault-vhv-host-')), 'intel-metal');
    const native = JSON.parse((await runCli(['check', '--json', '--no-vhv', ...host.cliArgs], cliEnv(), { timeoutMs: 60_000 })).stdout) as { tier: string; ready: boolean };
    const cases: Array<{ name: string; prepare: () => Promise<string>; status: string; message: RegExp }> = [
      { name: 'missing', prepare: async () => path.join(await mkdtemp(path.join(os.tmpdir(), 'fault-vhv-none-')), 'virt-host-validate'), status: 'skip', message: /is not installed/ },
      { name: 'garbage', prepare: () => modeTool('garbage'), status: 'error', message: /printed no result line/ },
      { name: 'binary', prepare: () => modeTool('binary'), status: 'error', message: /printed no result line/ },
      { name: 'exit 1 without FAIL', prepare: () => modeTool('exit1'), status: 'error', message: /no result line|exited 1/ },
      { name: 'not executable', prepare: async () => { const command = await modeTool('pass'); await chmod(command, 0o644); return command; }, status: 'error', message: /could not run/ },
    ];
    const fault = new Fault('vhv-broken', 'virt-host-validate missing, garbage, binary, exit 1, not executable');
    fault.touchesNoObjects('virtgate check, no cluster; the agent under a hung or flooding virt-host-validate is vhv-hang and vhv-flood');
    try {
      const outcomes = await Promise.all(
        cases.map(async (entry) => {
          const run = await runCli(['check', '--json', ...host.cliArgs, '--vhv-command', await entry.prepare()], cliEnv(), { timeoutMs: 60_000 });
          fault.tried();
          return { entry, run, json: JSON.parse(run.stdout) as { tier: string; ready: boolean; checks: Array<{ id: string; status: string; message: string }> } };
        }),
      );
      for (const { entry, run, json } of outcomes) {
        const check = json.checks.find((c) => c.id === 'virt-host-validate');
        expect(run.code, entry.name).toBeLessThan(2);
        expect(check?.status, `${entry.name}: ${check?.message}`).toBe(entry.status);
        expect(check?.message, entry.name).toMatch(entry.message);
        expect({ tier: json.tier, ready: json.ready }, entry.name).toEqual({ tier: native.tier, ready: native.ready });
      }
      fault.handled();
    } finally {
      fault.finish();
    }
  });
});

async function modeTool(mode: VhvMode): Promise<string> {
  const fake = await fakeVhv(mode);
  return fake.command;
}
