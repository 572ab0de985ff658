/**
 * Objects an aggregator may meet in a real cluster that were not written by a well-behaved agent
 * or operator: everything the CRD schemas let through (fields they preserve unknown hold any type;
 * typed fields hold hostile text), and sizes near the API server's limits. The KubeVirt and CDI
 * objects live under KubeVirt's and CDI's own CRDs, which type every field: wrong types cannot get
 * in (gate.fuzz.test.ts covers them), hostile text and huge lists can.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { createNode, ensureNamespace } from '../lab/controlplane/identities.ts';
import { statusOf } from '../lab/support/wait.ts';
import { createNodeValidation } from '../lab/support/node-validations.ts';

export const HOSTILE_NAMESPACE = 'fault-hostile';
export const XSS = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const NV = { group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations' } as const;

/** Deeply nested junk of about `bytes` bytes, of every JSON type. */
function junk(bytes: number, depth = 6): unknown {
  let value: unknown = { s: XSS, n: -1e308, b: true, z: null, a: [1, 'two', { three: [] }], u: '\u0000\u001b[31m\u202e' };
  for (let level = 0; level < depth; level += 1) value = { [`level${level}`]: value, list: [value, level, `${level}`] };
  return { nested: value, padding: 'x'.repeat(Math.max(0, bytes - JSON.stringify(value).length)) };
}

const at = (offsetSeconds: number) => new Date(Date.now() + offsetSeconds * 1000).toISOString();

/** Every check id and many unknown ones, each with a long hostile message. */
function hostileChecks(): Array<Record<string, unknown>> {
  return Array.from({ length: 64 }, (_, index) => ({
    id: index % 2 === 0 ? `${XSS}${index}` : 'dev.kvm',
    status: (['pass', 'warn', 'fail', 'skip', 'error'] as const)[index % 5],
    message: `${XSS} ${'m'.repeat(4000)}`,
    hint: XSS,
    observed: index % 3 === 0 ? junk(2000, 3) : [XSS, 1, null],
  }));
}

export interface HostileNames {
  nodes: string[];
  reports: string[];
  kubevirts: string[];
  cdis: string[];
}

async function createReport(admin: KubeConfig, name: string, nodeName: string, uid: string | undefined, status: Record<string, unknown>): Promise<void> {
  await createNodeValidation(admin.makeApiClient(CustomObjectsApi), {
    apiVersion: 'virtgate.io/v1alpha1',
    kind: 'NodeValidation',
    metadata: { name, ...(uid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid }] } : {}), annotations: { note: XSS } },
    spec: { nodeName },
    status,
  });
}

export async function createHostileObjects(admin: KubeConfig): Promise<HostileNames> {
  const core = admin.makeApiClient(CoreV1Api);
  const custom = admin.makeApiClient(CustomObjectsApi);
  // Node labels can only be strings, so: many of them, odd but valid values, and a huge annotation.
  const manyLabels = Object.fromEntries(Array.from({ length: 400 }, (_, index) => [`hostile-${index}.example.com/${'k'.repeat(50)}`, 'v'.repeat(63)]));
  const labelled = await createNode(admin, 'fault-hostile-labels', {
    labels: { ...manyLabels, 'virtgate.io/ready': 'maybe', 'virtgate.io/tier': 'quantum', 'virtgate.io/cpu-vendor': 'x'.repeat(63) },
    taints: Array.from({ length: 300 }, (_, index) => ({ key: `hostile.example.com/t${index}`, value: 'v'.repeat(63), effect: 'NoSchedule' })),
    containerRuntimeVersion: `cri-o://${XSS}`,
    kernelVersion: XSS.repeat(20),
    osImage: '\u202eSUXNIL',
  });
  await core.patchNode(
    { name: 'fault-hostile-labels', body: { metadata: { annotations: { 'hostile.example.com/blob': 'a'.repeat(200_000) } } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  await createReport(admin, 'fault-hostile-labels', 'fault-hostile-labels', labelled.metadata?.uid, {
    ready: true,
    tier: 'hardware',
    conclusive: true,
    kvm: 'pass',
    kernel: '<b>6.8</b>',
    heartbeatAt: at(0),
    probedAt: at(0),
    checks: hostileChecks(),
    facts: junk(300_000),
    agentVersion: XSS.slice(0, 64),
    taint: { policy: 'off', applied: false },
    somethingNew: junk(10_000),
  });

  // A report whose every undeclared field has the wrong type, with a heartbeat a year ahead.
  const odd = await createNode(admin, 'fault-hostile-types');
  await createReport(admin, 'fault-hostile-types', 'fault-hostile-types', odd.metadata?.uid, {
    ready: false,
    tier: 'none',
    heartbeatAt: at(365 * 86_400),
    checks: [],
    facts: [XSS, { cpu: 'not-an-observation' }, 42],
    taint: {},
    lastTransitionAt: at(-86_400),
  });

  // Reports that are not what they claim: another node's name in spec, an orphan, no status at all.
  await createReport(admin, 'fault-hostile-orphan', 'fault-hostile-orphan', undefined, { ready: true, tier: 'hardware', heartbeatAt: at(0) });
  const bare = await createNode(admin, 'fault-hostile-bare');
  await admin.makeApiClient(CustomObjectsApi).createClusterCustomObject({
    ...NV,
    body: { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: 'fault-hostile-bare', ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'fault-hostile-bare', uid: bare.metadata?.uid ?? '' }] }, spec: { nodeName: 'fault-hostile-bare' } },
  });

  await ensureNamespace(admin, HOSTILE_NAMESPACE);
  // KubeVirt's own CRD validates types and prunes unknown fields, and has a status subresource: the
  // spec is created, then the status written through /status, as virt-operator would.
  const kubevirt = async (name: string, spec: Record<string, unknown>, status: Record<string, unknown>) => {
    const where = { group: 'kubevirt.io', version: 'v1', namespace: HOSTILE_NAMESPACE, plural: 'kubevirts' };
    await custom.createNamespacedCustomObject({ ...where, body: { apiVersion: 'kubevirt.io/v1', kind: 'KubeVirt', metadata: { name }, spec } });
    await custom.patchNamespacedCustomObjectStatus({ ...where, name, body: { status } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  };
  await kubevirt(
    'hostile-types',
    {
      configuration: { developerConfiguration: { useEmulation: true, extra: junk(1000) }, evictionStrategy: XSS },
      workloads: {
        nodePlacement: {
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: XSS, operator: XSS, values: [XSS] }, { key: 'n', operator: 'Gt', values: ['not-a-number'] }] }] } } },
          tolerations: [{ operator: XSS }],
        },
      },
    },
    { phase: XSS, observedKubeVirtVersion: `v1.9.0-${'9'.repeat(5000)}`, targetKubeVirtVersion: XSS, conditions: [{ type: 'Available', status: 'True', reason: XSS, message: XSS, extra: junk(500) }, { type: 'Progressing', status: XSS }] },
  );
  await kubevirt(
    'hostile-huge',
    {
      workloads: {
        nodePlacement: {
          nodeSelector: Object.fromEntries(Array.from({ length: 3000 }, (_, index) => [`sel-${index}.example.com/key`, `v${index}`])),
          tolerations: Array.from({ length: 3000 }, (_, index) => ({ key: `t${index}`, operator: 'Equal', value: 'x', effect: 'NoSchedule' })),
          affinity: junk(200_000),
        },
      },
    },
    { phase: 'Deployed', observedKubeVirtVersion: 'v1.9.0', conditions: Array.from({ length: 2000 }, (_, index) => ({ type: `T${index}`, status: 'Unknown', message: 'm'.repeat(100) })) },
  );
  // CDI's own CRD has no status subresource: the status goes with the create.
  await custom.createClusterCustomObject({
    group: 'cdi.kubevirt.io',
    version: 'v1beta1',
    plural: 'cdis',
    body: { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'CDI', metadata: { name: 'fault-hostile' }, spec: { infra: junk(5000) }, status: { phase: XSS, observedVersion: 'v1.66.0\u0000', conditions: [{ type: XSS, status: XSS, junk: junk(100) }] } },
  });
  return {
    nodes: ['fault-hostile-labels', 'fault-hostile-types', 'fault-hostile-bare'],
    reports: ['fault-hostile-labels', 'fault-hostile-types', 'fault-hostile-orphan', 'fault-hostile-bare'],
    kubevirts: ['hostile-types', 'hostile-huge'],
    cdis: ['fault-hostile'],
  };
}

/** Removes them again, so that later files do not watch them. */
export async function deleteHostileObjects(admin: KubeConfig, names: HostileNames): Promise<void> {
  const core = admin.makeApiClient(CoreV1Api);
  const custom = admin.makeApiClient(CustomObjectsApi);
  const quietly = async (call: () => Promise<unknown>) => {
    try {
      await call();
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  };
  for (const name of names.reports) await quietly(() => custom.deleteClusterCustomObject({ ...NV, name }));
  for (const name of names.nodes) await quietly(() => core.deleteNode({ name }));
  for (const name of names.kubevirts) await quietly(() => custom.deleteNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', namespace: HOSTILE_NAMESPACE, plural: 'kubevirts', name }));
  for (const name of names.cdis) await quietly(() => custom.deleteClusterCustomObject({ group: 'cdi.kubevirt.io', version: 'v1beta1', plural: 'cdis', name }));
}
