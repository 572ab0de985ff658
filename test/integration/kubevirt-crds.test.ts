/**
 * The CRDs the tests install for KubeVirt and CDI (test/lab/support/kubevirt-crds.ts) are KubeVirt's and
 * CDI's own, and the real API server holds objects under them as it would in a cluster: the KubeVirt
 * CRD is the one KubeVirt's release ships (its generated manifests/generated/kv-resource.yaml) and
 * has a status subresource; the VMI CRD has none, and no status.evictionStrategy; the CDI CRD is
 * CDI's. Hand-written expectations, from KubeVirt v1.9.0's and CDI v1.65.0's sources.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiextensionsV1Api, CustomObjectsApi, type KubeConfig, loadYaml, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { ensureNamespace } from '../lab/controlplane/identities.ts';
import { installKubeVirtCrds, removeOptionalCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { installCrd } from '../lab/support/crds.ts';
import { cdiCrdFile, KUBEVIRT_VERSION, kubevirtCrdFile, vmiCrdFile } from '../lab/support/kubevirt-crds.ts';

const cp = useControlPlane();
let admin: KubeConfig;
let custom: CustomObjectsApi;
const NAMESPACE = 'kv-crds';
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

beforeAll(async () => {
  admin = cp.adminConfig();
  custom = admin.makeApiClient(CustomObjectsApi);
  await installCrd(admin);
  await removeOptionalCrds(admin);
  await installKubeVirtCrds(admin, { vmis: { kubeconfig: cp.adminKubeconfig } });
  await ensureNamespace(admin, NAMESPACE);
});

afterAll(async () => {
  await removeOptionalCrds(admin);
  await resetCluster(admin);
});

describe("KubeVirt's and CDI's own CRDs", () => {
  it("the KubeVirt CRD is resource-generator's, the one KubeVirt commits as manifests/generated/kv-resource.yaml", async () => {
    const generated: unknown = parse(await readFile(await kubevirtCrdFile(), 'utf8'));
    const modules = path.join(process.env.VIRTGATE_CACHE ?? path.join(os.homedir(), '.cache/virtgate'), 'go/mod');
    const shipped: unknown = parse(await readFile(path.join(modules, `kubevirt.io/kubevirt@${KUBEVIRT_VERSION}/manifests/generated/kv-resource.yaml`), 'utf8'));
    expect(generated).toEqual(shipped);
    expect(generated).toMatchObject({ metadata: { name: 'kubevirts.kubevirt.io' }, spec: { group: 'kubevirt.io', scope: 'Namespaced', names: { kind: 'KubeVirt' } } });
  });

  it('the API server serves them: kubevirt.io v1 and v1alpha3, cdi.kubevirt.io v1beta1', async () => {
    const api = admin.makeApiClient(ApiextensionsV1Api);
    const served = async (name: string) => (await api.readCustomResourceDefinition({ name })).spec.versions.filter((version) => version.served).map((version) => version.name);
    expect(await served('kubevirts.kubevirt.io')).toEqual(['v1', 'v1alpha3']);
    expect(await served('virtualmachineinstances.kubevirt.io')).toEqual(['v1', 'v1alpha3']);
    expect(await served('cdis.cdi.kubevirt.io')).toEqual(['v1alpha1', 'v1beta1']);
  });

  it('KubeVirt: a status sent with the create is dropped (status subresource); written through /status it is kept, and fields KubeVirt lacks are pruned', async () => {
    const where = { group: 'kubevirt.io', version: 'v1', namespace: NAMESPACE, plural: 'kubevirts' };
    const created = (await custom.createNamespacedCustomObject({
      ...where,
      body: {
        apiVersion: 'kubevirt.io/v1',
        kind: 'KubeVirt',
        metadata: { name: 'kubevirt' },
        spec: { workloads: { nodePlacement: { nodeSelector: { 'virtgate.io/ready': 'true' } } }, configuration: { developerConfiguration: { useEmulation: true }, evictionStrategy: 'LiveMigrate' } },
        status: { phase: 'Deployed' },
      },
    })) as { spec: unknown; status?: unknown };
    expect(created.status).toBeUndefined();
    expect(created.spec).toEqual({ workloads: { nodePlacement: { nodeSelector: { 'virtgate.io/ready': 'true' } } }, configuration: { developerConfiguration: { useEmulation: true }, evictionStrategy: 'LiveMigrate' } });
    const status = {
      phase: 'Deploying',
      targetKubeVirtVersion: 'v1.9.0',
      conditions: [{ type: 'Available', status: 'False', reason: 'DeploymentInProgress', message: 'Deploying version v1.9.0 with registry quay.io/kubevirt' }],
      notAKubeVirtField: 'x',
    };
    const patched = (await custom.patchNamespacedCustomObjectStatus({ ...where, name: 'kubevirt', body: { status } }, mergePatch)) as { status: Record<string, unknown> };
    expect(patched.status).toEqual({
      phase: 'Deploying',
      targetKubeVirtVersion: 'v1.9.0',
      conditions: [{ type: 'Available', status: 'False', reason: 'DeploymentInProgress', message: 'Deploying version v1.9.0 with registry quay.io/kubevirt' }],
    });
  });

  it('VMI: no status subresource, so a VMI is created with its status; spec.evictionStrategy is kept, a status.evictionStrategy pruned (KubeVirt has none)', async () => {
    const created = (await custom.createNamespacedCustomObject({
      group: 'kubevirt.io',
      version: 'v1',
      namespace: NAMESPACE,
      plural: 'virtualmachineinstances',
      body: {
        apiVersion: 'kubevirt.io/v1',
        kind: 'VirtualMachineInstance',
        metadata: { name: 'vmi' },
        spec: { evictionStrategy: 'LiveMigrate', domain: { devices: {} } },
        status: { nodeName: 'node-a', phase: 'Running', evictionStrategy: 'LiveMigrate', conditions: [{ type: 'LiveMigratable', status: 'True' }] },
      },
    })) as { spec: Record<string, unknown>; status: Record<string, unknown> };
    expect(created.spec.evictionStrategy).toBe('LiveMigrate');
    expect(created.status).toEqual({ nodeName: 'node-a', phase: 'Running', conditions: [{ type: 'LiveMigratable', status: 'True' }] });
  });

  it("CDI: CDI's own CRD (cluster-scoped, v1beta1 stored), no status subresource", async () => {
    const text = await readFile(await cdiCrdFile(), 'utf8');
    const crd = loadYaml<{ metadata: { name: string }; spec: { scope: string; versions: Array<{ name: string; storage: boolean; subresources?: Record<string, unknown> }> } }>(text);
    expect(crd.metadata.name).toBe('cdis.cdi.kubevirt.io');
    expect(crd.spec.scope).toBe('Cluster');
    expect(crd.spec.versions.map((version) => [version.name, version.storage, version.subresources ?? null])).toEqual([
      ['v1alpha1', false, {}],
      ['v1beta1', true, {}],
    ]);
    const created = (await custom.createClusterCustomObject({
      group: 'cdi.kubevirt.io',
      version: 'v1beta1',
      plural: 'cdis',
      body: { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'CDI', metadata: { name: 'cdi' }, spec: {}, status: { phase: 'Deployed', observedVersion: 'v1.66.0' } },
    })) as { status: Record<string, unknown> };
    expect(created.status).toEqual({ phase: 'Deployed', observedVersion: 'v1.66.0' });
  });

  it("the VMI CRD is virt-operator's (its install strategy), written to the cache once", async () => {
    const file = await vmiCrdFile(admin, cp.adminKubeconfig);
    expect(file).toBe(path.join(path.dirname(await kubevirtCrdFile()), 'virtualmachineinstances.kubevirt.io.yaml'));
    const crd = parse(await readFile(file, 'utf8')) as { metadata: { name: string; labels: Record<string, string> }; spec: { names: { shortNames: string[] } } };
    expect(crd.metadata).toEqual({ name: 'virtualmachineinstances.kubevirt.io', labels: { 'kubevirt.io': '' } });
    expect(crd.spec.names.shortNames).toEqual(['vmi', 'vmis']);
  });
});
