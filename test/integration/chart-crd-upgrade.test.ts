/**
 * `helm upgrade` brings the NodeValidation CRD up to date (docs/install.md, "The NodeValidation
 * CRD"). Helm never upgrades what a chart ships in `crds/`, which is where the chart kept the CRD
 * before the status subresource; the chart now ships it as a template with
 * `helm.sh/resource-policy: keep`.
 *
 * The previous release is played by a copy of the chart whose CRD is the one the chart shipped
 * then, in `crds/` (test/fixtures/crds/nodevalidations.virtgate.io.previous.yaml). The test shows
 * that CRD refusing what the agent now writes (a status through /status), upgrades to this chart,
 * and shows the same write accepted, then that `helm uninstall` leaves the CRD and the reports.
 *
 * The CRD is cluster-wide and other test files of the run share this control plane (one file at a
 * time): the file starts by deleting it, and leaves the current one behind.
 */
import { cp as copy, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../lab/chart/cluster.ts';
import { CHART_DIR, helm, helmOk } from '../lab/chart/helm.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { PREVIOUS_NODE_VALIDATION_CRD } from '../lab/support/crds.ts';
import { NV, writeNodeValidationStatus } from '../lab/support/node-validations.ts';
import { statusOfCall, waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const extensions = admin.makeApiClient(ApiextensionsV1Api);

const NS = 'chart-crd-upgrade';
const RELEASE = 'crd-upgrade';
const CRD = 'nodevalidations.virtgate.io';
const REPORT = 'chart-crd-upgrade-node';
// No prune Job (no kubelet runs it here), no helm test hook: only the objects this test is about.
const VALUES = ['--set', 'prune.onUninstall=false', '--set', 'agent.virtHostValidate.enabled=false'];
const stamp = '2026-12-02T12:00:00Z';

/** What the agent now writes: a status with the Ready condition, through /status. */
const status = (conditionStatus = 'True') => ({
  ready: true,
  tier: 'hardware',
  heartbeatAt: stamp,
  observedGeneration: 1,
  conditions: [{ type: 'Ready', status: conditionStatus, observedGeneration: 1, lastTransitionTime: stamp, reason: 'HardwareVirtualization', message: 'KVM is usable' }],
});

let previousChart = '';

async function crdGone(): Promise<void> {
  const deleted = await statusOfCall(() => extensions.deleteCustomResourceDefinition({ name: CRD }));
  expect([0, 404]).toContain(deleted);
  await waitFor(`CRD ${CRD} to be deleted`, async () => ((await statusOfCall(() => extensions.readCustomResourceDefinition({ name: CRD }))) === 404 ? true : undefined), 60_000);
}

async function established(): Promise<V1CustomResourceDefinition> {
  return waitFor(`CRD ${CRD} to be established`, async () => {
    const crd = await extensions.readCustomResourceDefinition({ name: CRD });
    return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? crd : undefined;
  });
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: NS, labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } } });
  // The previous chart: this chart with the previous CRD where the chart kept it then.
  previousChart = path.join(await mkdtemp(path.join(tmpdir(), 'virtgate-previous-chart-')), 'virtgate');
  await copy(CHART_DIR, previousChart, { recursive: true });
  await rm(path.join(previousChart, 'templates/crds'), { recursive: true });
  await mkdir(path.join(previousChart, 'crds'));
  await copy(PREVIOUS_NODE_VALIDATION_CRD, path.join(previousChart, 'crds', `${CRD}.yaml`));
  await crdGone();
});

afterAll(async () => {
  await statusOfCall(() => custom.deleteClusterCustomObject({ ...NV, name: REPORT }));
  if (previousChart) await rm(path.dirname(previousChart), { recursive: true, force: true });
});

describe('upgrading from the chart that shipped the CRD in crds/', () => {
  it('the previous chart installs the previous CRD, which has no status subresource: a status write is refused', async () => {
    await helmOk(cp.binDir, ['install', RELEASE, previousChart, '--namespace', NS, ...VALUES], cp.adminKubeconfig);
    const crd = await established();
    expect(crd.spec.versions[0]?.subresources).toBeUndefined();
    // Helm creates crds/ as they are: nothing marks the CRD as the release's.
    expect(crd.metadata?.annotations?.['meta.helm.sh/release-name']).toBeUndefined();
    // A report as the previous agent wrote it: status in the object itself.
    await waitFor('the previous CRD to serve NodeValidations', async () =>
      (await statusOfCall(() => custom.createClusterCustomObject({ ...NV, body: { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: REPORT }, spec: { nodeName: REPORT }, status: { ready: false, tier: 'none', heartbeatAt: stamp } } }))) === 0 ? true : undefined);
    const written = await refusal(() => writeNodeValidationStatus(custom, REPORT, status()));
    expect(written.status).toBe(404);
  });

  it('helm upgrade to this chart, taking the CRD over once, updates it: the same status write is accepted and validated', async () => {
    // Plain `helm upgrade` stops before changing anything: the CRD exists but is not the release's.
    const plain = await helm(cp.binDir, ['upgrade', RELEASE, CHART_DIR, '--namespace', NS, ...VALUES], cp.adminKubeconfig);
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toContain(`CustomResourceDefinition "${CRD}"`);
    expect(plain.stderr).toContain('invalid ownership metadata');
    expect((await extensions.readCustomResourceDefinition({ name: CRD })).spec.versions[0]?.subresources).toBeUndefined();

    await helmOk(cp.binDir, ['upgrade', RELEASE, CHART_DIR, '--namespace', NS, '--take-ownership', ...VALUES], cp.adminKubeconfig);
    const crd = await established();
    expect(crd.spec.versions[0]?.subresources?.status).toEqual({});
    expect(crd.metadata?.annotations).toMatchObject({ 'helm.sh/resource-policy': 'keep', 'meta.helm.sh/release-name': RELEASE, 'meta.helm.sh/release-namespace': NS });
    expect(crd.spec.versions[0]?.additionalPrinterColumns?.map((column) => column.name)).toContain('Reason');

    // The report from before the upgrade is still there, and now takes its status through /status.
    const before = (await custom.getClusterCustomObject({ ...NV, name: REPORT })) as { metadata: { generation: number }; status: { tier: string } };
    expect(before.status.tier).toBe('none');
    const after = (await waitFor('the upgraded CRD to serve /status', async () => {
      const outcome = await writeNodeValidationStatus(custom, REPORT, status()).catch(() => undefined);
      return outcome;
    })) as { metadata: { generation: number }; status: ReturnType<typeof status> };
    expect(after.status).toEqual(status());
    expect(after.metadata.generation).toBe(before.metadata.generation);
    // And the new schema checks the conditions it admits.
    const invalid = await refusal(() => writeNodeValidationStatus(custom, REPORT, status('Maybe')));
    expect(invalid.status).toBe(422);
    expect(invalid.message).toContain('Unsupported value: "Maybe"');

    // From now on plain `helm upgrade` updates the CRD like any other object of the release.
    await helmOk(cp.binDir, ['upgrade', RELEASE, CHART_DIR, '--namespace', NS, ...VALUES], cp.adminKubeconfig);
  });

  it('helm uninstall leaves the CRD and every NodeValidation', async () => {
    const outcome = await helmOk(cp.binDir, ['uninstall', RELEASE, '--namespace', NS, '--timeout', '2m'], cp.adminKubeconfig);
    expect(outcome).toContain(`release "${RELEASE}" uninstalled`);
    expect(await statusOfCall(() => extensions.readCustomResourceDefinition({ name: CRD }))).toBe(0);
    const report = (await custom.getClusterCustomObject({ ...NV, name: REPORT })) as { status: ReturnType<typeof status> };
    expect(report.status.conditions[0]?.reason).toBe('HardwareVirtualization');
  });
});
