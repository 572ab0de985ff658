/**
 * A NodeValidation's status has two writers: the agent (every key but vmBoot, key by key once the
 * status exists: agent/desired/status-patch.ts) and the VM canary (`add /status/vmBoot`). Against
 * the real kube-apiserver with the chart's CRD, and the agent's own plans (agent/publish/plan.ts):
 * in either order, neither write loses the other's keys; and the way the agent clears a key its
 * report no longer has, `add` null, is what the API server makes of it: the key is gone, whether it
 * was there or not (a JSON Patch `remove` of an absent key is refused, so the agent cannot use it
 * without knowing what is stored at the moment of the write).
 */
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Inventory } from '../../core/inventory/schema.ts';
import type { NodeValidation } from '../../core/report/schema.ts';
import { AGENT_DECLARED_STATUS_KEYS, type StatusOperation } from '../../agent/desired/status-patch.ts';
import { plan, type PlanSettings } from '../../agent/publish/plan.ts';
import { decide } from '../../agent/publish/decision.ts';
import type { TaintConfig } from '../../agent/config.ts';
import { bareNode, keys, NOT_READY, outcome, READY } from '../lab/agent/publish.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { installCrd } from '../lab/support/crds.ts';
import { NV } from '../lab/support/node-validations.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const custom = admin.makeApiClient(CustomObjectsApi);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

const NO_TAINT: TaintConfig = { policy: 'off', poolSelector: '', effect: 'NoSchedule', allowNoExecute: false, maxShare: 0.5, bootstrapKey: undefined };
const INVENTORY: Inventory = { collected: true, system: { manufacturer: 'Example', model: 'Metal 1' }, cpu: { brand: 'Xeon', sockets: 1, cores: 4, threads: 8 }, memoryTotalBytes: 34359738368 };
const withInventory: PlanSettings = { keys, taintConfig: NO_TAINT, agentVersion: '0.0.0-test', inventory: INVENTORY };
const withoutInventory: PlanSettings = { ...withInventory, inventory: undefined };

// The canary's result, in the contract's shape (core/report/schema.ts, vmBootSchema).
const VM_BOOT = {
  status: 'True',
  reason: 'Booted',
  message: 'VIRTGATE-CANARY-OK',
  runAt: '2026-12-05T10:02:00Z',
  lastTransitionTime: '2026-12-05T10:02:00Z',
  lastSuccessAt: '2026-12-05T10:02:07Z',
  nodeClass: 'intel-xeon-hardware-5.14-metal',
  classFailedRuns: 0,
  seconds: { scheduled: 0.4, launcherRunning: 2.1, vmiRunning: 6.25, guestMarker: 6.31 },
  canaryVersion: '0.1.0',
};

const read = async (name: string) => (await custom.getClusterCustomObject({ ...NV, name })) as NodeValidation & { status: Record<string, unknown> };
const patchStatus = async (name: string, operations: readonly unknown[]) =>
  (await custom.patchClusterCustomObjectStatus({ ...NV, name, body: operations }, jsonPatch)) as NodeValidation & { status: Record<string, unknown> };
const without = (status: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(status).filter(([k]) => k !== key));

/** One publish of the agent, planned from what the API server holds now, and its status write sent. */
async function agentPublish(name: string, verdict: typeof READY, settings: PlanSettings, now: Date): Promise<StatusOperation[]> {
  const node = bareNode(name);
  const report = await read(name).catch(() => undefined);
  const decided = plan(decide(outcome(verdict), node, settings), { node, report, pool: undefined }, settings, { condition: false, report: false }, now);
  if (decided.report.create) await custom.createClusterCustomObject({ ...NV, body: { ...decided.report.create, metadata: { name, labels: decided.report.create.metadata.labels } } });
  const operations = decided.report.write?.operations ?? [];
  if (operations.length > 0) await patchStatus(name, operations);
  return operations;
}

beforeAll(async () => {
  await installCrd(admin);
});

describe('the agent and the canary write the same status, each its own keys', () => {
  it('agent, then canary, then agent again: each keeps what the other wrote', async () => {
    const NAME = 'writers-either-order';
    const first = await agentPublish(NAME, READY, withInventory, new Date('2026-12-05T10:00:00Z'));
    expect(first.map((operation) => operation.path)).toEqual(['/status']);
    const published = (await read(NAME)).status;
    // Every optional key of the agent's is there to be cleared later.
    expect(Object.keys(published)).toEqual(expect.arrayContaining(['confidential', 'cpuVendor', 'cpuFeatures', 'platform', 'inventory', 'hostDevices']));

    const afterCanary = await patchStatus(NAME, [{ op: 'add', path: '/status/vmBoot', value: VM_BOOT }]);
    expect(afterCanary.status.vmBoot).toEqual(VM_BOOT);
    expect(without(afterCanary.status, 'vmBoot')).toEqual(published);

    // A verdict change, and the inventory gone (an agent started without one): a whole write.
    const second = await agentPublish(NAME, NOT_READY, withoutInventory, new Date('2026-12-05T10:05:00Z'));
    expect(second.some((operation) => operation.path === '/status')).toBe(false);
    expect(second).toContainEqual({ op: 'add', path: '/status/inventory', value: null });
    const after = (await read(NAME)).status;
    expect(after.vmBoot).toEqual(VM_BOOT);
    expect(after).toMatchObject({ ready: false, tier: 'none' });
    expect('inventory' in after).toBe(false);

    // And nothing left to write: the agent's plan from what is stored is quiet, vmBoot or not.
    expect(await agentPublish(NAME, NOT_READY, withoutInventory, new Date('2026-12-05T10:06:00Z'))).toEqual([]);
  });

  it('the canary cannot write before the agent has a status (so the agent\'s first, whole write loses nothing); after it, it can', async () => {
    const NAME = 'writers-canary-second';
    await custom.createClusterCustomObject({ ...NV, body: { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: NAME }, spec: { nodeName: NAME } } });
    const early = await patchStatus(NAME, [{ op: 'add', path: '/status/vmBoot', value: VM_BOOT }]).then(
      () => 0,
      (error: unknown) => (error as { code?: number }).code,
    );
    expect(early).toBe(422);
    expect((await read(NAME)).status).toBeUndefined();

    const first = await agentPublish(NAME, READY, withoutInventory, new Date('2026-12-05T10:00:00Z'));
    expect(first.map((operation) => operation.path)).toEqual(['/status']);
    const agentStatus = (await read(NAME)).status;
    await patchStatus(NAME, [{ op: 'add', path: '/status/vmBoot', value: { ...VM_BOOT, status: 'False', reason: 'GuestSilent', classFailedRuns: 1 } }]);
    const after = (await read(NAME)).status;
    expect(without(after, 'vmBoot')).toEqual(agentStatus);
    expect(after.vmBoot).toMatchObject({ reason: 'GuestSilent', classFailedRuns: 1 });
  });
});

describe('what the API server does with the ways to clear a status key', () => {
  it('add null: every declared key of the agent is pruned, present or absent; the canary key stays', async () => {
    const NAME = 'writers-null';
    await agentPublish(NAME, READY, withInventory, new Date('2026-12-05T10:00:00Z'));
    await patchStatus(NAME, [{ op: 'add', path: '/status/vmBoot', value: VM_BOOT }]);
    const before = (await read(NAME)).status;
    // Absent before: a key no agent of this version writes without its host having it.
    expect(AGENT_DECLARED_STATUS_KEYS.filter((key) => !(key in before))).toEqual([]);
    await patchStatus(NAME, AGENT_DECLARED_STATUS_KEYS.map((key) => ({ op: 'add', path: `/status/${key}`, value: null })));
    const cleared = (await read(NAME)).status;
    expect(Object.keys(cleared).sort()).toEqual(['vmBoot']);
    // Again, on keys that are no longer there: no error, nothing stored.
    await patchStatus(NAME, AGENT_DECLARED_STATUS_KEYS.map((key) => ({ op: 'add', path: `/status/${key}`, value: null })));
    expect(Object.keys((await read(NAME)).status).sort()).toEqual(['vmBoot']);
  });

  it('a key the schema does not declare is pruned, null or not (the raw host facts older agents wrote), and the agent then has nothing to write', async () => {
    const NAME = 'writers-undeclared';
    await agentPublish(NAME, READY, withoutInventory, new Date('2026-12-05T10:00:00Z'));
    const published = (await read(NAME)).status;
    await patchStatus(NAME, [{ op: 'add', path: '/status/facts', value: { hostRoot: '/host', cpu: { state: 'ok', value: { vendor: 'intel' } } } }]);
    expect((await read(NAME)).status).toEqual(published);
    await patchStatus(NAME, [{ op: 'add', path: '/status/facts', value: null }]);
    expect((await read(NAME)).status).toEqual(published);
    expect(await agentPublish(NAME, READY, withoutInventory, new Date('2026-12-05T10:01:00Z'))).toEqual([]);
  });

  it('remove: refused (422) when the key is absent, so it would fail a write planned from a stale read', async () => {
    const NAME = 'writers-remove';
    await agentPublish(NAME, READY, withoutInventory, new Date('2026-12-05T10:00:00Z'));
    expect('inventory' in (await read(NAME)).status).toBe(false);
    const refused = await patchStatus(NAME, [{ op: 'remove', path: '/status/inventory' }]).then(
      () => 0,
      (error: unknown) => (error as { code?: number }).code,
    );
    expect(refused).toBe(422);
  });
});
