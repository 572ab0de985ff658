/**
 * The stored shape changed within v1alpha1 (docs/install.md, "Upgrading to declared report
 * fields"): `status` no longer keeps unknown fields, so the raw host facts older agents stored
 * (`status.facts`) are pruned, and the CPU vendor and platform are declared fields. Against the
 * real kube-apiserver: a report an older agent stored under the CRD of then
 * (test/fixtures/crds/nodevalidations.virtgate.io.with-facts.yaml) is read by every program
 * before and after the CRD is replaced by this one, and the agent's next publish replaces it.
 *
 * The CRD is cluster-wide and other files of the run share this control plane (one file at a
 * time): the file starts by deleting it, and leaves the current one behind.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiextensionsV1Api, CustomObjectsApi, loadYaml, PatchStrategy, setHeaderOptions, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { readReport } from '../../core/report/read.ts';
import { reportView } from '../../canary/report-view.ts';
import { decide } from '../../agent/publish/decision.ts';
import { plan, type PlanSettings } from '../../agent/publish/plan.ts';
import { crdYamlOfTemplate } from '../../scripts/crd.ts';
import { bareNode, keys, outcome, READY } from '../lab/agent/publish.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { installCrd, NODE_VALIDATION_CRD } from '../lab/support/crds.ts';
import { createNodeValidation, NV } from '../lab/support/node-validations.ts';
import { refusal } from '../lab/chart/cluster.ts';
import { statusOfCall, waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const custom = admin.makeApiClient(CustomObjectsApi);
const extensions = admin.makeApiClient(ApiextensionsV1Api);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

const CRD = 'nodevalidations.virtgate.io';
const WITH_FACTS_CRD = path.join(PACKAGE_ROOT, 'test/fixtures/crds/nodevalidations.virtgate.io.with-facts.yaml');
const NAME = 'migration-node';
/** A report edited by hand under the CRD of then, which kept any key: a CPU vendor no schema knows. */
const EDITED = 'migration-edited';
const stamp = '2026-12-07T10:00:00Z';
const settings: PlanSettings = { keys, taintConfig: { policy: 'off', poolSelector: '', effect: 'NoSchedule', allowNoExecute: false, maxShare: 0.5, bootstrapKey: undefined }, agentVersion: '0.0.0-test' };

/** A report as an agent before this change stored it (its shape written out here, not built by today's code). */
const OLDER_STATUS = {
  ready: true,
  tier: 'hardware',
  conclusive: true,
  kvm: 'pass',
  kernel: '5.14',
  checks: [
    { id: 'dev.kvm', status: 'pass', message: '/dev/kvm (10:232) opens read-write', observed: { major: 10, minor: 232 } },
    { id: 'platform', status: 'pass', message: 'bare metal (Dell Inc. PowerEdge R760)', observed: { kind: 'bare-metal', hypervisor: null, cloud: null } },
  ],
  facts: { hostRoot: '/host', cpu: { state: 'ok', value: { arch: 'x86_64', vendor: 'intel', model: 'Xeon', processors: 8, vmx: true, svm: false, hypervisor: false, features: ['avx2'] } } },
  cpuFeatures: ['avx2'],
  agentVersion: '0.9.0',
  probedAt: stamp,
  lastTransitionAt: stamp,
  heartbeatAt: stamp,
  taint: { policy: 'off', applied: false },
  observedGeneration: 1,
  conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1, lastTransitionTime: stamp, reason: 'HardwareVirtualization', message: 'KVM is usable' }],
};

const read = async () => (await custom.getClusterCustomObject({ ...NV, name: NAME })) as { status: Record<string, unknown>; metadata: { generation: number } };

async function crdGone(): Promise<void> {
  expect([0, 404]).toContain(await statusOfCall(() => extensions.deleteCustomResourceDefinition({ name: CRD })));
  await waitFor(`CRD ${CRD} to be deleted`, async () => ((await statusOfCall(() => extensions.readCustomResourceDefinition({ name: CRD }))) === 404 ? true : undefined), 60_000);
}

/** Replaces the served CRD's spec with the chart's, as `helm upgrade` does. */
async function replaceWithCurrentCrd(): Promise<void> {
  const wanted = loadYaml<V1CustomResourceDefinition>(crdYamlOfTemplate(await readFile(NODE_VALIDATION_CRD, 'utf8')));
  const current = await extensions.readCustomResourceDefinition({ name: CRD });
  await extensions.replaceCustomResourceDefinition({ name: CRD, body: { ...current, spec: wanted.spec } });
}

/** One publish of the agent, planned from what the API server holds now (agent/publish/plan.ts), its status write sent. */
async function agentPublish(now: Date): Promise<string[]> {
  const node = bareNode(NAME);
  const report = (await read()) as never;
  const decided = plan(decide(outcome(READY), node, settings), { node, report, pool: undefined }, settings, { condition: false, report: false }, now);
  const operations = decided.report.write?.operations ?? [];
  if (operations.length > 0) await custom.patchClusterCustomObjectStatus({ ...NV, name: NAME, body: operations }, jsonPatch);
  return operations.map((operation) => operation.path);
}

beforeAll(async () => {
  await crdGone();
  await installCrd(admin, WITH_FACTS_CRD);
  await createNodeValidation(custom, { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: NAME }, spec: { nodeName: NAME }, status: OLDER_STATUS });
  await createNodeValidation(custom, { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: EDITED }, spec: { nodeName: EDITED }, status: { ...OLDER_STATUS, cpuVendor: 'cyrix', kernel: 'six point eight' } });
});

afterAll(async () => {
  for (const name of [NAME, EDITED]) await statusOfCall(() => custom.deleteClusterCustomObject({ ...NV, name }));
});

describe('a report an older agent stored, across the CRD change to declared fields only', () => {
  it('under the CRD of then, the report keeps its raw facts, and today\'s readers read it without its new fields', async () => {
    const stored = await read();
    expect(stored.status.facts).toEqual(OLDER_STATUS.facts);
    const reading = readReport(stored);
    if (reading.state !== 'valid') throw new Error(`the older report did not read: ${reading.reason}`);
    expect(reading.report).toMatchObject({ ready: true, tier: 'hardware', cpuVendor: null, platform: null, cpuFeatures: ['avx2'], agentVersion: '0.9.0' });
    expect(reportView(stored)).toMatchObject({ node: NAME, ready: true, tier: 'hardware', cpuVendor: undefined, platform: undefined });
  });

  it('with this CRD the API server no longer hands out the raw facts, and the report still reads', async () => {
    await replaceWithCurrentCrd();
    // The new schema is in force once it refuses a CPU vendor it does not know.
    await waitFor('the replaced CRD to validate cpuVendor', async () =>
      (await refusal(() => custom.patchClusterCustomObjectStatus({ ...NV, name: NAME, dryRun: 'All', body: [{ op: 'add', path: '/status/cpuVendor', value: 'cyrix' }] }, jsonPatch))).status === 422 ? true : undefined);
    // Pruned as the object is read, before anything writes it: everything else is as stored.
    const stored = await read();
    const { facts: _pruned, ...declared } = OLDER_STATUS;
    expect(stored.status).toEqual(declared);
    const reading = readReport(stored);
    expect(reading.state).toBe('valid');
    expect(reportView(stored)).toMatchObject({ node: NAME, ready: true, cpuVendor: undefined });
  });

  it('a report edited by hand with values no schema admits still reads, and the reader names the fields it could not read', async () => {
    // Stored under the CRD of then; the API server validates writes, not what it already holds.
    const edited = (await custom.getClusterCustomObject({ ...NV, name: EDITED })) as { status: Record<string, unknown> };
    expect(edited.status.cpuVendor).toBe('cyrix');
    const reading = readReport(edited);
    if (reading.state !== 'valid') throw new Error(`the edited report did not read: ${reading.reason}`);
    expect(reading.report).toMatchObject({ ready: true, tier: 'hardware', cpuVendor: null, unreadFields: ['status.cpuVendor'] });
    // 'six point eight' is a string of at most 32 characters: the schema's kernel, read as it is.
    expect(reading.report.kernel).toBe('six point eight');
    expect(reportView(edited)).toMatchObject({ node: EDITED, ready: true, cpuVendor: undefined, kernel: undefined });
  });

  it("the agent's next publish writes the declared fields, the facts are gone from the stored object, and the one after writes nothing", async () => {
    const paths = await agentPublish(new Date('2026-12-07T10:05:00Z'));
    expect(paths).toEqual(expect.arrayContaining(['/status/cpuVendor', '/status/platform']));
    const stored = await read();
    expect(stored.status).not.toHaveProperty('facts');
    expect(stored.status).toMatchObject({ cpuVendor: 'intel', platform: { kind: 'bare-metal' } });
    const reading = readReport(stored);
    if (reading.state !== 'valid') throw new Error(reading.reason);
    expect(reading.report).toMatchObject({ cpuVendor: 'intel', platform: { kind: 'bare-metal' } });
    expect(await agentPublish(new Date('2026-12-07T10:06:00Z'))).toEqual([]);
  });
});
