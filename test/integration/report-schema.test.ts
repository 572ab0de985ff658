/**
 * The CRD generated from the report schema (core/report/schema.ts, `npm run generate:crd`) makes a
 * real kube-apiserver admit exactly what the schema's stored form admits, and prune what zod strips.
 * The status goes through the status subresource, as the agent writes it: each case creates its
 * object (metadata and spec), writes its status with a dry run, and deletes the object again.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { CustomObjectsApi, type KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { storedNodeValidationSchema } from '../../core/report/schema.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { installCrd } from '../lab/support/crds.ts';
import { createNodeValidation, writeNodeValidationStatus } from '../lab/support/node-validations.ts';
import { statusOf, waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
const NV = { group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations' } as const;
const stamp = '2026-12-02T12:00:00.000Z';
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const run = promisify(execFile);

let admin: KubeConfig;

const check = (id = 'dev.kvm') => ({ id, status: 'pass', message: '/dev/kvm opens read-write' });
const agentStatus = {
  ready: true,
  tier: 'hardware',
  conclusive: true,
  kvm: 'pass',
  kernel: '5.14',
  checks: [{ ...check(), hint: 'none', observed: { major: 10, minor: 232 } }],
  cpuVendor: 'intel',
  platform: { kind: 'virtual-machine', cloud: 'aws', hypervisor: 'Amazon EC2 (Nitro)' },
  agentVersion: '0.1.0',
  probedAt: stamp,
  lastTransitionAt: stamp,
  heartbeatAt: '2026-12-02T13:00:00+01:00',
  taint: { policy: 'off', applied: false },
  observedGeneration: 1,
  conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1, lastTransitionTime: '2026-12-02T12:00:00Z', reason: 'HardwareVirtualization', message: 'KVM is usable' }],
};
const condition = (fields: Record<string, unknown>) => ({ conditions: [{ ...agentStatus.conditions[0], ...fields }] });

function nodeValidation(name: string, status: unknown, nodeName: string = name): Record<string, unknown> {
  return { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name }, spec: { nodeName }, ...(status === undefined ? {} : { status }) };
}

/** [what, object, admitted]: admitted is what both the schema and the API server must say. */
const CASES: Array<[string, Record<string, unknown>, boolean]> = [
  ['the report the agent writes', nodeValidation('schema-agent', agentStatus), true],
  ['no status yet', nodeValidation('schema-bare', undefined), true],
  ['a partial status', nodeValidation('schema-partial', { ready: true, tier: 'hardware', heartbeatAt: stamp }), true],
  ['an empty taint, unknown fields, a long unknown check id', nodeValidation('schema-odd', { taint: {}, somethingNew: [1], checks: [check('x'.repeat(200))] }), true],
  ['a 32-character kernel and 64 checks', nodeValidation('schema-limits', { kernel: 'k'.repeat(32), checks: Array.from({ length: 64 }, () => check()) }), true],
  ['an unknown tier', nodeValidation('schema-tier', { tier: 'turbo' }), false],
  ['ready as a string', nodeValidation('schema-ready', { ready: 'true' }), false],
  ['an unknown kvm status', nodeValidation('schema-kvm', { kvm: 'maybe' }), false],
  ['a 33-character kernel', nodeValidation('schema-kernel', { kernel: 'k'.repeat(33) }), false],
  ['65 checks', nodeValidation('schema-checks', { checks: Array.from({ length: 65 }, () => check()) }), false],
  ['a check without a message', nodeValidation('schema-message', { checks: [{ id: 'dev.kvm', status: 'pass' }] }), false],
  ['a heartbeat that is not a time', nodeValidation('schema-heartbeat', { heartbeatAt: 'yesterday' }), false],
  ['an unknown taint policy', nodeValidation('schema-policy', { taint: { policy: 'always' } }), false],
  ['an agent version of 65 characters', nodeValidation('schema-version', { agentVersion: 'v'.repeat(65) }), false],
  ['an empty spec.nodeName', nodeValidation('schema-empty-node', {}, ''), false],
  ['a spec.nodeName of 254 characters', nodeValidation('schema-long-node', {}, 'n'.repeat(254)), false],
  ['a condition whose status is Unknown', nodeValidation('schema-cond-unknown', condition({ status: 'Unknown', reason: 'ProbeInconclusive' })), true],
  ['a condition whose status is no metav1 status', nodeValidation('schema-cond-status', condition({ status: 'Maybe' })), false],
  ['a condition whose reason is not CamelCase', nodeValidation('schema-cond-reason', condition({ reason: 'checks failed' })), false],
  ['a condition without a transition time', nodeValidation('schema-cond-time', condition({ lastTransitionTime: undefined })), false],
  ['a negative observedGeneration', nodeValidation('schema-generation', { observedGeneration: -1 }), false],
  ['a CPU vendor that does not exist', nodeValidation('schema-vendor', { cpuVendor: 'cyrix' }), false],
  ['a platform of no known kind', nodeValidation('schema-platform', { platform: { kind: 'mainframe' } }), false],
  ['a platform on an unknown cloud', nodeValidation('schema-cloud', { platform: { kind: 'virtual-machine', cloud: 'elsewhere' } }), false],
];

/** Creates the object (metadata, spec), writes its status through /status with a dry run, deletes it. */
async function dryRunWrite(object: Record<string, unknown>): Promise<{ admitted: boolean; stored?: Record<string, unknown>; message?: string }> {
  const custom = admin.makeApiClient(CustomObjectsApi);
  const { status, ...created } = object as { metadata: { name: string }; status?: unknown };
  let exists = false;
  try {
    let stored = (await custom.createClusterCustomObject({ ...NV, body: created })) as Record<string, unknown>;
    exists = true;
    if (status !== undefined) {
      const name = created.metadata.name;
      stored = (await custom.patchClusterCustomObjectStatus({ ...NV, name, body: [{ op: 'add', path: '/status', value: status }], dryRun: 'All' }, jsonPatch)) as Record<string, unknown>;
    }
    return { admitted: true, stored };
  } catch (error) {
    if (statusOf(error) !== 422) throw error;
    return { admitted: false, message: String((error as { body?: unknown }).body ?? error) };
  } finally {
    if (exists) await custom.deleteClusterCustomObject({ ...NV, name: created.metadata.name });
  }
}

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
});

describe('the generated NodeValidation CRD in a real API server', () => {
  it.each(CASES)('admits or refuses %s as the report schema does', async (_what, object, admitted) => {
    expect(storedNodeValidationSchema.safeParse(object).success).toBe(admitted);
    const outcome = await dryRunWrite(object);
    expect(outcome.admitted, outcome.message).toBe(admitted);
  });

  it('keeps the declared status fields and what a check observed, and prunes every other key (the raw host facts of older agents too)', async () => {
    const olderAgentsFacts = { hostRoot: '/host', cpu: { state: 'ok', value: { vendor: 'intel' } } };
    const outcome = await dryRunWrite(nodeValidation('schema-prune', { ...agentStatus, facts: olderAgentsFacts, somethingNew: { a: 1 }, taint: { policy: 'off', applied: false, extra: 1 } }, 'schema-prune'));
    const status = outcome.stored?.status as Record<string, unknown>;
    expect(status).toEqual(agentStatus);
    expect(status).not.toHaveProperty('facts');
    expect(status).not.toHaveProperty('somethingNew');
    expect((status.checks as Array<Record<string, unknown>>)[0]?.observed).toEqual({ major: 10, minor: 232 });
    expect(status.taint).toEqual({ policy: 'off', applied: false });
  });

  it('drops a status from a create and keeps metadata.generation at 1 through status writes (status subresource)', async () => {
    const custom = admin.makeApiClient(CustomObjectsApi);
    const created = (await custom.createClusterCustomObject({ ...NV, body: nodeValidation('schema-subresource', agentStatus) })) as Record<string, unknown> & { metadata: { generation: number } };
    try {
      expect(created.status).toBeUndefined();
      expect(created.metadata.generation).toBe(1);
      await writeNodeValidationStatus(custom, 'schema-subresource', agentStatus);
      const written = (await writeNodeValidationStatus(custom, 'schema-subresource', { ...agentStatus, heartbeatAt: stamp })) as { metadata: { generation: number }; status: { heartbeatAt: string } };
      expect(written.metadata.generation).toBe(1);
      expect(written.status.heartbeatAt).toBe(stamp);
      // A status in a write to the object itself is ignored too: only /status changes it.
      const patched = (await custom.patchClusterCustomObject({ ...NV, name: 'schema-subresource', body: { status: { ready: false } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch))) as { status: { ready: boolean } };
      expect(patched.status.ready).toBe(true);
    } finally {
      await custom.deleteClusterCustomObject({ ...NV, name: 'schema-subresource' });
    }
    // The shared test helper does both steps.
    const both = (await createNodeValidation(custom, nodeValidation('schema-helper', agentStatus) as { metadata: { name: string } })) as { status: { conditions: unknown[] } };
    expect(both.status.conditions).toEqual(agentStatus.conditions);
    await custom.deleteClusterCustomObject({ ...NV, name: 'schema-helper' });
  });

  it('kubectl explain shows the status conditions and their fields, from the schema\'s descriptions', async () => {
    const kubectl = path.join(cp.binDir, 'kubectl');
    // The API server publishes a new CRD's OpenAPI a moment after it is established.
    const explained = await waitFor('kubectl explain to know NodeValidation conditions', async () => {
      const outcome = await run(kubectl, ['--kubeconfig', cp.adminKubeconfig, 'explain', 'nodevalidation.status.conditions'], { encoding: 'utf8' }).catch(() => undefined);
      return outcome?.stdout.includes('lastTransitionTime') ? outcome.stdout : undefined;
    }, 30_000, 500);
    expect(explained).toContain('Conditions in the metav1.Condition shape');
    for (const field of ['type', 'status', 'reason', 'message', 'lastTransitionTime', 'observedGeneration']) expect(explained).toMatch(new RegExp(`^\\s+${field}\\s`, 'm'));
    expect(explained).toContain('When status last changed.');
  });
});
