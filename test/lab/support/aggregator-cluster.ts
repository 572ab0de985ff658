/**
 * Cluster objects for the aggregator's integration tests: Nodes with their NodeValidation
 * reports (as an agent would write them), KubeVirt and CDI objects under KubeVirt's and CDI's own
 * CRDs (./kubevirt-crds.ts), and a reset to an empty cluster so that each gate scenario sees
 * exactly its own objects.
 */
import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, type KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { createNode, ensureNamespace, type FakeNodeOptions } from '../controlplane/identities.ts';
import { installCrd } from './crds.ts';
import { cdiCrdFile, kubevirtCrdFile, vmiCrdFile } from './kubevirt-crds.ts';
import { createNodeValidation, mergeNodeValidationStatus } from './node-validations.ts';
import { statusOf, waitFor } from './wait.ts';
import { scenarioVerdictReport } from '../reports/agent-report.ts';

/**
 * Installs KubeVirt's KubeVirt CRD and CDI's CDI CRD (generated, see kubevirt-crds.ts); with
 * `vmis`, KubeVirt's VirtualMachineInstance CRD too (its generation needs the API server once,
 * through the kubeconfig file `vmis.kubeconfig`).
 */
export async function installKubeVirtCrds(kc: KubeConfig, options: { cdi?: boolean; vmis?: { kubeconfig: string } } = {}): Promise<void> {
  await installCrd(kc, await kubevirtCrdFile());
  if (options.cdi ?? true) await installCrd(kc, await cdiCrdFile());
  if (options.vmis) await installCrd(kc, await vmiCrdFile(kc, options.vmis.kubeconfig));
}

export interface ReportOptions {
  /** The heartbeat time (the aggregator compares it with its own clock). */
  heartbeatAt: Date;
  ready?: boolean;
  tier?: 'hardware' | 'emulation' | 'none';
  vendor?: 'intel' | 'amd' | 'arm' | 'other';
  kernel?: string;
  /** status.cpuFeatures: the guest-relevant CPU features, sorted; absent when not given. */
  cpuFeatures?: string[];
  checks?: Array<{ id: string; status: 'pass' | 'warn' | 'fail' | 'skip' | 'error'; message: string }>;
  /** status.hostDevices: the passthrough inventory; absent when not given. */
  hostDevices?: Record<string, unknown>;
  /** status.confidential: per kind, available or the reason not; absent when not given. */
  confidential?: Record<string, { available: boolean; reason?: string; asidsFree?: number }>;
}

export function reportStatus(options: ReportOptions): Record<string, unknown> {
  const ready = options.ready ?? true;
  const tier = options.tier ?? (ready ? 'hardware' : 'none');
  const at = options.heartbeatAt.toISOString();
  return {
    ...scenarioVerdictReport({
      ready,
      tier,
      checks: options.checks ?? [
        { id: 'cpu.virtualization', status: 'pass', message: 'vmx' },
        { id: 'dev.kvm', status: tier === 'hardware' ? 'pass' : 'fail', message: tier === 'hardware' ? '/dev/kvm opens read-write' : '/dev/kvm is missing' },
        { id: 'dev.tun', status: tier === 'none' ? 'fail' : 'pass', message: '/dev/net/tun' },
      ],
      vendor: options.vendor ?? 'intel',
      kernel: options.kernel ?? '5.14',
      ...(options.cpuFeatures ? { cpuFeatures: options.cpuFeatures } : {}),
    }),
    probedAt: at,
    lastTransitionAt: at,
    heartbeatAt: at,
    ...(options.hostDevices ? { hostDevices: options.hostDevices } : {}),
    ...(options.confidential ? { confidential: options.confidential } : {}),
  };
}

/** A Node as a kubelet registers it and, unless `report` is null, its agent's NodeValidation. */
export async function createValidatedNode(kc: KubeConfig, name: string, options: { node?: FakeNodeOptions; report: ReportOptions | null }): Promise<void> {
  const node = await createNode(kc, name, options.node);
  const report = options.report;
  if (report === null) return;
  await retrying(() =>
    createNodeValidation(kc.makeApiClient(CustomObjectsApi), {
      apiVersion: 'virtgate.io/v1alpha1',
      kind: 'NodeValidation',
      metadata: { name, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata?.uid ?? '' }] },
      spec: { nodeName: name },
      status: reportStatus(report),
    }),
  );
}

/** Replaces a node's report status (merge patch through /status: custom resources take no strategic merge). */
export async function updateReport(kc: KubeConfig, name: string, report: ReportOptions): Promise<void> {
  await mergeNodeValidationStatus(kc.makeApiClient(CustomObjectsApi), name, reportStatus(report));
}

export interface KubeVirtOptions {
  name: string;
  namespace?: string;
  version: string;
  phase?: string;
  available?: 'True' | 'False';
  useEmulation?: boolean;
  /** spec.configuration.developerConfiguration.featureGates */
  featureGates?: string[];
  nodePlacement?: Record<string, unknown>;
  /** spec.configuration.evictionStrategy */
  evictionStrategy?: string;
  /** spec.configuration.permittedHostDevices */
  permittedHostDevices?: Record<string, unknown>;
  /** The whole status instead of the Deployed/Available one built from `phase`, `version`, `available`; null: none (virt-operator has not acted yet). */
  status?: Record<string, unknown> | null;
}

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * A KubeVirt object, as a user creates it (spec), with the status virt-operator would write. The
 * real CRD has a status subresource, so the status goes through `/status` in a second request,
 * as virt-operator writes it.
 */
export async function createKubeVirt(kc: KubeConfig, options: KubeVirtOptions): Promise<void> {
  const namespace = options.namespace ?? 'kubevirt';
  const custom = kc.makeApiClient(CustomObjectsApi);
  const where = { group: 'kubevirt.io', version: 'v1', namespace, plural: 'kubevirts' };
  await ensureNamespace(kc, namespace);
  await retrying(() => custom.createNamespacedCustomObject({
    ...where,
    body: {
      apiVersion: 'kubevirt.io/v1',
      kind: 'KubeVirt',
      metadata: { name: options.name, namespace },
      spec: {
        configuration: {
          developerConfiguration: { useEmulation: options.useEmulation ?? false, ...(options.featureGates ? { featureGates: options.featureGates } : {}) },
          ...(options.evictionStrategy ? { evictionStrategy: options.evictionStrategy } : {}),
          ...(options.permittedHostDevices ? { permittedHostDevices: options.permittedHostDevices } : {}),
        },
        workloads: options.nodePlacement === undefined ? {} : { nodePlacement: options.nodePlacement },
      },
    },
  }));
  const status = options.status === undefined
    ? {
        phase: options.phase ?? 'Deployed',
        observedKubeVirtVersion: options.version,
        targetKubeVirtVersion: options.version,
        conditions: [{ type: 'Available', status: options.available ?? 'True', reason: 'AllComponentsReady', message: 'All components are ready.' }],
      }
    : options.status;
  if (status === null) return;
  await retrying(() => custom.patchNamespacedCustomObjectStatus({ ...where, name: options.name, body: { status } }, mergePatch));
}

export async function createCdi(kc: KubeConfig, name: string, version: string): Promise<void> {
  await retrying(() => kc.makeApiClient(CustomObjectsApi).createClusterCustomObject({
    group: 'cdi.kubevirt.io',
    version: 'v1beta1',
    plural: 'cdis',
    body: { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'CDI', metadata: { name }, spec: {}, status: { phase: 'Deployed', observedVersion: version } },
  }));
}

/**
 * Retries what the API server asks to retry: right after a CRD is created it answers 429
 * "storage is (re)initializing" for a moment.
 */
async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const status = statusOf(error);
      if (attempt >= 40 || (status !== 429 && (status === undefined || status < 500))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function ignoreNotFound(call: () => Promise<unknown>): Promise<void> {
  try {
    await retrying(call);
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
  }
}

/**
 * Deletes every Node, NodeValidation, KubeVirt and CDI object (the CRDs stay) and waits until they
 * are gone: each scenario starts from an empty cluster. Other test files run before or after this
 * one, never beside it (fileParallelism: false), so nothing else is using these objects.
 */
export async function resetCluster(kc: KubeConfig): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  await retrying(() => core.deleteCollectionNode({}));
  await ignoreNotFound(() => custom.deleteCollectionClusterCustomObject({ group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations' }));
  await ignoreNotFound(() => custom.deleteCollectionClusterCustomObject({ group: 'cdi.kubevirt.io', version: 'v1beta1', plural: 'cdis' }));
  await ignoreNotFound(async () => {
    const list = (await custom.listCustomObjectForAllNamespaces({ group: 'kubevirt.io', version: 'v1', resourcePlural: 'kubevirts' })) as { items: Array<{ metadata: { name: string; namespace: string } }> };
    for (const item of list.items) {
      await ignoreNotFound(() => custom.deleteNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', plural: 'kubevirts', namespace: item.metadata.namespace, name: item.metadata.name }));
    }
  });
  await waitFor('the cluster to be empty', async () => {
    const nodes = await core.listNode();
    const reports = (await custom.listClusterCustomObject({ group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations' })) as { items: unknown[] };
    return nodes.items.length === 0 && reports.items.length === 0 ? true : undefined;
  });
}

/** Deletes the KubeVirt and CDI CRDs (and so their objects), to show them being installed later. */
export async function removeOptionalCrds(kc: KubeConfig): Promise<void> {
  const api = kc.makeApiClient(ApiextensionsV1Api);
  const optional = ['kubevirts.kubevirt.io', 'cdis.cdi.kubevirt.io', 'virtualmachineinstances.kubevirt.io'];
  for (const name of optional) {
    await ignoreNotFound(() => api.deleteCustomResourceDefinition({ name }));
  }
  await waitFor(
    'the KubeVirt and CDI CRDs to be gone',
    async () => {
      const list = await api.listCustomResourceDefinition();
      return list.items.some((crd) => optional.includes(crd.metadata?.name ?? '')) ? undefined : true;
    },
    60_000,
  );
}

export interface VmiOptions {
  name: string;
  namespace: string;
  nodeName: string;
  phase?: string;
  /** spec.evictionStrategy; null: none (the cluster's applies). Default LiveMigrate. */
  evictionStrategy?: string | null;
  /** status of the LiveMigratable condition. Default True. */
  liveMigratable?: 'True' | 'False';
}

/**
 * A VirtualMachineInstance as it is stored once running: spec.evictionStrategy (virt-api's webhook
 * fills in the cluster's when the VMI has none; omitted here when `evictionStrategy` is null),
 * status.nodeName, status.phase and the LiveMigratable condition, as virt-controller and virt-handler
 * leave them. Needs the VMI CRD (installKubeVirtCrds with `vmis`), which has no status subresource.
 */
export async function createVmi(kc: KubeConfig, options: VmiOptions): Promise<void> {
  await ensureNamespace(kc, options.namespace);
  const strategy = options.evictionStrategy === undefined ? 'LiveMigrate' : options.evictionStrategy;
  await retrying(() => kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
    group: 'kubevirt.io',
    version: 'v1',
    namespace: options.namespace,
    plural: 'virtualmachineinstances',
    body: {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachineInstance',
      metadata: { name: options.name, namespace: options.namespace },
      spec: { ...(strategy === null ? {} : { evictionStrategy: strategy }), domain: { devices: {} } },
      status: {
        nodeName: options.nodeName,
        phase: options.phase ?? 'Running',
        conditions: [{ type: 'LiveMigratable', status: options.liveMigratable ?? 'True' }],
      },
    },
  }));
}
