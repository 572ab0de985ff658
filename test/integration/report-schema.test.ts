/**
 * The CRD generated from the report schema (core/report/schema.ts, `npm run generate:crd`) makes a
 * real kube-apiserver admit exactly what the schema's stored form admits, and prune what zod strips.
 * Dry-run creates: nothing is stored.
 */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { storedNodeValidationSchema } from '../../core/report/schema.ts';
import { useControlPlane } from '../controlplane/client.ts';
import { installCrd } from '../support/crds.ts';
import { statusOf } from '../support/wait.ts';

const cp = useControlPlane();
const NV = { group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations' } as const;
const stamp = '2026-12-02T12:00:00.000Z';

let admin: KubeConfig;

const check = (id = 'dev.kvm') => ({ id, status: 'pass', message: '/dev/kvm opens read-write' });
const agentStatus = {
  ready: true,
  tier: 'hardware',
  conclusive: true,
  kvm: 'pass',
  kernel: '5.14',
  checks: [{ ...check(), hint: 'none', observed: { major: 10, minor: 232 } }],
  facts: { hostRoot: '/host', cpu: { state: 'ok', value: { vendor: 'intel' } } },
  agentVersion: '0.1.0',
  probedAt: stamp,
  lastTransitionAt: stamp,
  heartbeatAt: '2026-12-02T13:00:00+01:00',
  taint: { policy: 'off', applied: false },
};

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
];

async function dryRunCreate(object: Record<string, unknown>): Promise<{ admitted: boolean; stored?: Record<string, unknown>; message?: string }> {
  try {
    const stored = (await admin.makeApiClient(CustomObjectsApi).createClusterCustomObject({ ...NV, body: object, dryRun: 'All' })) as Record<string, unknown>;
    return { admitted: true, stored };
  } catch (error) {
    if (statusOf(error) !== 422) throw error;
    return { admitted: false, message: String((error as { body?: unknown }).body ?? error) };
  }
}

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
});

describe('the generated NodeValidation CRD in a real API server', () => {
  it.each(CASES)('admits or refuses %s as the report schema does', async (_what, object, admitted) => {
    expect(storedNodeValidationSchema.safeParse(object).success).toBe(admitted);
    const outcome = await dryRunCreate(object);
    expect(outcome.admitted, outcome.message).toBe(admitted);
  });

  it('keeps the status and check fields the schema preserves, and prunes the others', async () => {
    const outcome = await dryRunCreate(nodeValidation('schema-prune', { ...agentStatus, somethingNew: { a: 1 }, taint: { policy: 'off', applied: false, extra: 1 } }, 'schema-prune'));
    const status = outcome.stored?.status as Record<string, unknown>;
    expect(status.facts).toEqual(agentStatus.facts);
    expect(status.somethingNew).toEqual({ a: 1 });
    expect((status.checks as Array<Record<string, unknown>>)[0]?.observed).toEqual({ major: 10, minor: 232 });
    expect(status.taint).toEqual({ policy: 'off', applied: false });
  });
});
