/**
 * `virtgate explain` against the real API server (RBAC and admission on), with KubeVirt's own
 * KubeVirt and VirtualMachineInstance CRDs and NodeValidations as an agent on each host kind
 * writes them (test/lab/reports/agent-report.ts). Which node fails what, and why, is worked out
 * here by hand from the objects created: KubeVirt itself does not run, so the nodes carry the
 * labels and allocatable devices virt-handler would give them (a fake node, as the test says).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CoreV1Api, CustomObjectsApi, type KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainResultSchema, type ExplainResult } from '../../explain/document.ts';
import { PERMISSIONS } from '../../cli/permissions.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode, ensureNamespace, podBoundIdentity } from '../lab/controlplane/identities.ts';
import { writeKubeconfig } from '../lab/controlplane/kubeconfig.ts';
import { closedPort } from '../lab/controlplane/ports.ts';
import { runCli } from '../lab/cli.ts';
import { tempDir } from '../lab/hosts/paths.ts';
import { agentNodeValidation, type HostKind } from '../lab/reports/agent-report.ts';
import { createKubeVirt, installKubeVirtCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { installCrd } from '../lab/support/crds.ts';
import { createNodeValidation } from '../lab/support/node-validations.ts';
import { statusOf } from '../lab/support/wait.ts';

const cp = useControlPlane();
const NOW = '2026-12-02T12:00:00Z';
const HEARTBEAT = new Date(Date.parse(NOW) - 60_000);
const VMS = 'explain-vms';
const DEVICES = { 'devices.kubevirt.io/kvm': '1k', 'devices.kubevirt.io/tun': '1k', 'devices.kubevirt.io/vhost-net': '1k' };
const HANDLER = { 'virtgate.io/ready': 'true', 'kubevirt.io/schedulable': 'true', 'kubernetes.io/arch': 'amd64' };

let admin: KubeConfig;
let dir: string;
let removeDir = async () => {};

async function ignoreConflict(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (error) {
    if (statusOf(error) !== 409) throw error;
  }
}

/** A Node as virt-handler leaves it (or, with no virt-handler, without its label and devices) and its agent's report. */
async function node(name: string, host: HostKind, options: { labels?: Record<string, string>; devices?: boolean } = {}): Promise<void> {
  const created = await createNode(admin, name, { labels: options.labels ?? HANDLER, cpu: '4', memory: '16Gi', extraResources: options.devices === false ? {} : DEVICES });
  await createNodeValidation(admin.makeApiClient(CustomObjectsApi), agentNodeValidation(name, created.metadata?.uid ?? '', host, HEARTBEAT));
}

async function vmi(name: string, spec: Record<string, unknown>, status?: Record<string, unknown>): Promise<void> {
  const body = {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: { name, namespace: VMS },
    // As virt-api's mutating webhook stores it: architecture, CPU model and topology set.
    spec: { architecture: 'amd64', domain: { cpu: { cores: 2, sockets: 1, threads: 1, model: 'host-model' }, devices: { interfaces: [{ name: 'default', masquerade: {} }] }, resources: { requests: { memory: '2Gi' } } }, networks: [{ name: 'default', pod: {} }], ...spec },
    ...(status ? { status } : {}),
  };
  await admin.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', namespace: VMS, plural: 'virtualmachineinstances', body });
}

const explain = (args: string[], kubeconfig = cp.adminKubeconfig) => runCli(['explain', ...args, '--kubeconfig', kubeconfig, '--now', NOW]);
function parsed(stdout: string): ExplainResult {
  return explainResultSchema.parse(JSON.parse(stdout));
}

beforeAll(async () => {
  admin = cp.adminConfig();
  ({ dir, remove: removeDir } = await tempDir('explain'));
  await installCrd(admin);
  await installKubeVirtCrds(admin, { vmis: { kubeconfig: cp.adminKubeconfig } });
  await resetCluster(admin);
  await node('ex-good-1', {});
  await node('ex-good-2', {});
  await node('ex-busy', {});
  await node('ex-nokvm', { kvm: false }, { labels: { 'virtgate.io/ready': 'false', 'kubernetes.io/arch': 'amd64' }, devices: false });
  await createKubeVirt(admin, { name: 'explain', version: 'v1.9.0', nodePlacement: { nodeSelector: { 'virtgate.io/ready': 'true' } } });
  await ensureNamespace(admin, VMS);
  // A pod bound to ex-busy that holds 3900m of its 4 CPUs (no kubelet runs: it stays Pending, bound, and counted).
  await admin.makeApiClient(CoreV1Api).createNamespacedPod({
    namespace: VMS,
    body: { metadata: { name: 'ex-busy-load' }, spec: { nodeName: 'ex-busy', containers: [{ name: 'load', image: 'registry.invalid/load:1', resources: { requests: { cpu: '3900m' } } }] } },
  }).catch((error: unknown) => {
    if (statusOf(error) !== 409) throw error;
  });
  await vmi('fedora', {});
  await vmi('pinned', { nodeSelector: { pool: 'gpu' } });
  await vmi('running', {}, { phase: 'Running', nodeName: 'ex-good-1' });
  // A VMI whose virt-launcher pod virt-controller has made (here by hand, unbound: no KubeVirt runs): 20Gi with the overhead, for a 2Gi guest.
  await vmi('launched', {});
  const launched = (await admin.makeApiClient(CustomObjectsApi).getNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', namespace: VMS, plural: 'virtualmachineinstances', name: 'launched' })) as { metadata: { uid: string } };
  await admin.makeApiClient(CoreV1Api).createNamespacedPod({
    namespace: VMS,
    body: { metadata: { name: 'virt-launcher-launched-x1', labels: { 'kubevirt.io/created-by': launched.metadata.uid } }, spec: { containers: [{ name: 'compute', image: 'registry.invalid/virt-launcher:1', resources: { requests: { cpu: '100m', memory: '20Gi' } } }] } },
  });
}, 120_000);

afterAll(async () => {
  await removeDir();
});

describe('virtgate explain against the real API server', () => {
  it('a pending VMI: the nodes it fits, and for each other node its first unmet requirement with virtgate\'s evidence (exit 0)', async () => {
    const outcome = await explain(['vmi', 'fedora', '-n', VMS, '--json']);
    expect(outcome.code, outcome.stderr).toBe(0);
    const result = parsed(outcome.stdout);
    expect(result).toMatchObject({ kind: 'ExplainResult', result: 'can-run', vmi: { kind: 'VirtualMachineInstance', name: 'fedora', namespace: VMS } });
    expect(result.placement.fitting).toEqual(['ex-good-1', 'ex-good-2']);
    // Groups of one node each, in requirement order: kubevirt.io/schedulable is judged first.
    expect(result.placement.groups.map((group) => [group.nodes, group.requirement, group.cause, group.example.detail])).toEqual([
      [['ex-nokvm'], 'label:kubevirt.io/schedulable', 'no virt-handler here: virtgate.io/ready=false (dev.kvm: fail)', '/dev/kvm does not exist'],
      [['ex-busy'], 'resource:cpu', 'insufficient cpu', '200m needed, 100m free of 4'],
    ]);
    expect(result.placement.groups[0]?.remedy).toMatch(/kvm_intel/);
  });

  it('the same answer for people, one group a line', async () => {
    const outcome = await explain(['vmi', 'fedora', '-n', VMS]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(`vmi ${VMS}/fedora: can run on 2 of 4 nodes`);
    expect(outcome.stdout).toContain('1 node: no virt-handler here: virtgate.io/ready=false (dev.kvm: fail)');
    expect(outcome.stdout).toContain('ex-busy: 200m needed, 100m free of 4');
  });

  it('a VMI no node can take exits 1 and names the label it asks for', async () => {
    const outcome = await explain(['vmi', 'pinned', '-n', VMS, '--json']);
    expect(outcome.code, outcome.stderr).toBe(1);
    const result = parsed(outcome.stdout);
    expect(result.result).toBe('cannot-run');
    expect(result.placement.nodes.find((entry) => entry.name === 'ex-good-1')?.failures).toEqual([{ requirement: 'label:pool', cause: 'pool=gpu not on the node', detail: 'pool absent', remedy: null }]);
  });

  it("a VMI with its virt-launcher pod made is judged by the pod's own requests, KubeVirt's overhead included", async () => {
    const outcome = await explain(['vmi', 'launched', '-n', VMS, '--json']);
    expect(outcome.code, outcome.stderr).toBe(1);
    const result = parsed(outcome.stdout);
    expect(result.requirements.find((requirement) => requirement.id === 'resource:memory')).toMatchObject({ text: 'memory: 20Gi', because: "as its virt-launcher pod requests it, KubeVirt's overhead included" });
    expect(result.placement.nodes.find((entry) => entry.name === 'ex-good-1')?.failures).toEqual([{ requirement: 'resource:memory', cause: 'insufficient memory', detail: '20Gi needed, 16Gi free of 16Gi', remedy: null }]);
  });

  it('a running VMI: where it could live-migrate, its own node left out; its own pod does not count against its node, another VM\'s does', async () => {
    const custom = admin.makeApiClient(CustomObjectsApi);
    const running = (await custom.getNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', namespace: VMS, plural: 'virtualmachineinstances', name: 'running' })) as { metadata: { uid: string } };
    const core = admin.makeApiClient(CoreV1Api);
    // Its virt-launcher pod on ex-good-1, holding 15Gi of the node's 16Gi.
    await core.createNamespacedPod({
      namespace: VMS,
      body: { metadata: { name: 'virt-launcher-running-x1', labels: { 'kubevirt.io/created-by': running.metadata.uid } }, spec: { nodeName: 'ex-good-1', containers: [{ name: 'compute', image: 'registry.invalid/virt-launcher:1', resources: { requests: { cpu: '100m', memory: '15Gi' } } }] } },
    });
    try {
      const result = parsed((await explain(['vmi', 'running', '-n', VMS, '--json'])).stdout);
      expect(result.migration?.from).toBe('ex-good-1');
      expect(result.migration?.candidates).toBe(3);
      expect(result.migration?.nodes.map((entry) => entry.name)).not.toContain('ex-good-1');
      expect(result.requirements.find((requirement) => requirement.id === 'resource:memory')?.text).toBe('memory: 15Gi');
      expect(result.placement.fitting).toContain('ex-good-1');
      const other = parsed((await explain(['vmi', 'fedora', '-n', VMS, '--json'])).stdout);
      expect(other.placement.nodes.find((entry) => entry.name === 'ex-good-1')?.failures[0]).toMatchObject({ cause: 'insufficient memory', detail: '2Gi needed, 1Gi free of 16Gi' });
    } finally {
      await core.deleteNamespacedPod({ namespace: VMS, name: 'virt-launcher-running-x1', gracePeriodSeconds: 0 });
    }
  });

  it('a VM from a file, not yet created: defaulted as virt-api would, judged the same', async () => {
    const file = path.join(dir, 'vm.yaml');
    await writeFile(file, ['apiVersion: kubevirt.io/v1', 'kind: VirtualMachine', 'metadata: {name: draft}', 'spec:', '  template:', '    spec:', '      domain:', '        cpu: {cores: 1}', '        memory: {guest: 1Gi}', '        devices: {}', ''].join('\n'));
    const outcome = await explain(['-f', file, '-n', VMS, '--json']);
    expect(outcome.code, outcome.stderr).toBe(0);
    const result = parsed(outcome.stdout);
    expect(result.vmi).toMatchObject({ kind: 'VirtualMachine', name: 'draft', source: `file ${file}` });
    // 1 vCPU / 10 = 100m fits ex-busy's 100m free: three nodes.
    expect(result.placement.fitting).toEqual(['ex-busy', 'ex-good-1', 'ex-good-2']);
    expect(result.notes.join('\n')).toContain("KubeVirt's defaults applied");
    // This API server serves no VirtualMachine kind (only KubeVirt's VMI CRD is installed): not checked, and said so.
    expect(result.notes[0]).toBe(`file ${file} was not checked by the API server (virtualmachines.kubevirt.io is not served (KubeVirt not installed?)): KubeVirt's schema and admission may still refuse it`);
  });

  it("a VMI from a file goes through the API server's dry run: accepted, nothing created; an unknown field is refused in the API server's words (exit 2)", async () => {
    const good = path.join(dir, 'vmi.yaml');
    await writeFile(good, 'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\nmetadata: {name: fedora}\nspec: {architecture: amd64, domain: {cpu: {cores: 1}, devices: {}}}\n');
    const accepted = await explain(['-f', good, '-n', VMS, '--json']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(parsed(accepted.stdout).notes[0]).toContain('accepted by the API server in a dry run');
    // Nothing created: the VMIs of the namespace are the four this file made.
    const vmis = (await admin.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', namespace: VMS, plural: 'virtualmachineinstances' })) as { items: Array<{ metadata: { name: string } }> };
    expect(vmis.items.map((item) => item.metadata.name).sort()).toEqual(['fedora', 'launched', 'pinned', 'running']);
    const unknown = path.join(dir, 'unknown.yaml');
    await writeFile(unknown, 'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\nmetadata: {name: typo}\nspec: {domain: {cpuu: {cores: 1}, devices: {}}}\n');
    const refused = await explain(['-f', unknown, '-n', VMS]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(refused.stderr).toMatch(/^virtgate: file .*unknown\.yaml: the API server refused it \(dry run, nothing created\): .*unknown field "spec\.domain\.cpuu"/);
  });

  it('bad input exits 2 with one line; an unreachable cluster exits 4', async () => {
    const missing = await explain(['vm', 'nope', '-n', VMS]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^virtgate: vm explain-vms\/nope not found/);
    const bad = path.join(dir, 'bad.yaml');
    await writeFile(bad, 'kind: VirtualMachineInstance\nmetadata: {name: x}\nspec: {domain: {resources: {requests: {memory: lots}}}}\n');
    const invalid = await explain(['-f', bad]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr.trim()).toBe(`virtgate: file ${bad}: spec.domain.resources.requests.memory: "lots" is not a Kubernetes quantity`);
    expect((await explain(['vmi'])).code).toBe(2);
    const unreachable = await writeKubeconfig(path.join(dir, 'unreachable'), `https://127.0.0.1:${await closedPort()}`, path.join(dir, 'no-ca.crt'), { token: 'unused' });
    const down = await explain(['vmi', 'fedora', '-n', VMS], unreachable);
    expect(down.code).toBe(4);
    expect(down.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  describe('least privilege', () => {
    const ROLE = 'explain-test-user';
    async function identity(rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[], account: string): Promise<string> {
      const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
      await ignoreConflict(() => rbac.createClusterRole({ body: { metadata: { name: `${ROLE}-${account}` }, rules } }));
      await ignoreConflict(() =>
        rbac.createClusterRoleBinding({
          body: { metadata: { name: `${ROLE}-${account}` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${ROLE}-${account}` }, subjects: [{ kind: 'ServiceAccount', name: account, namespace: VMS }] },
        }),
      );
      return (await podBoundIdentity(admin, cp, VMS, account, 'ex-good-2')).kubeconfig;
    }
    const asRules = (rules: readonly { group: string; resources: readonly string[]; verbs: readonly string[] }[]) => rules.map((rule) => ({ apiGroups: [rule.group], resources: [...rule.resources], verbs: [...rule.verbs] }));

    it('with exactly the permissions it declares, the same answer as an admin', async () => {
      const kubeconfig = await identity(asRules([...PERMISSIONS.explain.rules, ...PERMISSIONS.explain.optional]), 'explain-full');
      const outcome = await explain(['vmi', 'fedora', '-n', VMS, '--json'], kubeconfig);
      expect(outcome.code, outcome.stderr).toBe(0);
      const asAdmin = parsed((await explain(['vmi', 'fedora', '-n', VMS, '--json'])).stdout);
      expect(parsed(outcome.stdout)).toEqual(asAdmin);
    });

    it('with list nodes alone, a file is still judged, and the answer says what it could not read', async () => {
      const kubeconfig = await identity(asRules(PERMISSIONS.explain.rules), 'explain-nodes');
      const file = path.join(dir, 'vmi.json');
      await writeFile(file, JSON.stringify({ kind: 'VirtualMachineInstance', metadata: { name: 'draft' }, spec: { domain: { devices: {} } } }));
      const outcome = await explain(['-f', file, '--json'], kubeconfig);
      expect(outcome.code, outcome.stderr).toBe(0);
      const result = parsed(outcome.stdout);
      expect(result.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^nodevalidations\.virtgate\.io: not allowed/), expect.stringMatching(/^pods: not allowed/), expect.stringMatching(/^kubevirts\.kubevirt\.io: not allowed/)]));
      // Without reports, ex-nokvm's cause is KubeVirt's label alone, with no virtgate evidence.
      expect(result.placement.groups.find((group) => group.nodes.includes('ex-nokvm'))?.cause).toBe('no virt-handler here, and virtgate has no current report (missing)');
      // Without the VMI's get permission, a VMI in the cluster cannot be read: refused, exit 4, the permissions named.
      const refused = await explain(['vmi', 'fedora', '-n', VMS], kubeconfig);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('HTTP 403');
      expect(refused.stderr).toContain('Permissions (RBAC):');
    });
  });
});
