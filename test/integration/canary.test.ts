/**
 * `virtgate canary` against the real API server, with KubeVirt's own VMI CRD and no KubeVirt
 * controllers. Where KubeVirt would act (virt-controller making a virt-launcher pod, the kubelet
 * running it), this test stands in for it, or nothing acts at all: that stands in for KubeVirt not
 * acting. The real-node test covers real KubeVirt booting the canary's guest.
 *
 * The truth each case is held to is the test's own: which nodes it made ready, stale, cordoned
 * or of which class; the real scheduler's reason on a pod it could not place; the objects left in
 * the API server afterwards.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig, PatchStrategy, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { ensureNamespace } from '../lab/controlplane/identities.ts';
import { runCli } from '../lab/cli.ts';
import { CLI_MAIN, REPO_ROOT } from '../lab/hosts/paths.ts';
import { virtLauncherPod } from '../lab/e2e/virt-launcher.ts';
import { createValidatedNode, installKubeVirtCrds, removeOptionalCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { installCrd } from '../lab/support/crds.ts';
import { mergeNodeValidationStatus, NV } from '../lab/support/node-validations.ts';
import { waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
let admin: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;

const NS = 'virtgate-canary';
const VMI = { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances' } as const;
const INTEL = 'intel/xeon-gold-6338/hardware/kernel-6.12/metal';
const AMD = 'amd/epyc-9654/hardware/kernel-6.12/metal';
const IMAGE = 'registry.invalid/virtgate/canary-disk:test';

const platformCheck = { id: 'platform', status: 'pass', message: 'bare metal', observed: { kind: 'bare-metal', hypervisor: null, cloud: null } };
const baseChecks = [
  { id: 'cpu.virtualization', status: 'pass', message: 'vmx' },
  { id: 'dev.kvm', status: 'pass', message: '/dev/kvm opens read-write' },
  { id: 'dev.tun', status: 'pass', message: '/dev/net/tun' },
] as const;

/** A ready node whose report names its CPU and platform, so its class is known to the test. */
async function classedNode(name: string, vendor: 'intel' | 'amd', options: { ready?: boolean; heartbeatAt?: Date } = {}): Promise<void> {
  await createValidatedNode(admin, name, { report: { heartbeatAt: options.heartbeatAt ?? new Date(), ready: options.ready ?? true, tier: 'hardware', vendor, kernel: '6.12', checks: [...baseChecks] } });
  const brand = vendor === 'intel' ? 'Intel Xeon Gold 6338' : 'AMD EPYC 9654';
  await mergeNodeValidationStatus(custom, name, {
    inventory: { collected: true, cpu: { brand, sockets: 1, cores: 8, threads: 16 } },
    checks: [...baseChecks, platformCheck],
  });
}

async function statusOf(name: string): Promise<Record<string, unknown>> {
  return ((await custom.getClusterCustomObject({ ...NV, name })) as { status: Record<string, unknown> }).status;
}

async function vmis(): Promise<Array<{ metadata: { name: string; uid: string; labels: Record<string, string> } }>> {
  return ((await custom.listNamespacedCustomObject({ ...VMI, namespace: NS })) as { items: Array<{ metadata: { name: string; uid: string; labels: Record<string, string> } }> }).items;
}

const canary = (...args: string[]) => ['canary', '--kubeconfig', cp.adminKubeconfig, '--disk-image', IMAGE, ...args];

beforeAll(async () => {
  admin = cp.adminConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await installCrd(admin);
  await removeOptionalCrds(admin);
  await resetCluster(admin);
  await ensureNamespace(admin, NS);
  // Two nodes of one class, one of another; one not ready, one stale, one cordoned.
  await classedNode('canary-a1', 'intel');
  await classedNode('canary-a2', 'intel');
  await classedNode('canary-b1', 'amd');
  await classedNode('canary-down', 'intel', { ready: false });
  await classedNode('canary-stale', 'amd', { heartbeatAt: new Date(Date.now() - 2 * 3600_000) });
  await classedNode('canary-cordoned', 'amd');
  await core.patchNode({ name: 'canary-cordoned', body: { spec: { unschedulable: true } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
}, 300_000);

afterAll(async () => {
  await cp.control('scheduler/stop').catch(() => undefined);
  await removeOptionalCrds(admin);
  await resetCluster(admin);
});

describe('virtgate canary, without KubeVirt', () => {
  it('exits with the cluster code, says KubeVirt is not installed, and changes no report', async () => {
    const before = await Promise.all(['canary-a1', 'canary-b1'].map(statusOf));
    const run = await runCli(canary());
    expect(run.stderr).toContain('virtgate: KubeVirt is not installed (no virtualmachineinstances.kubevirt.io)');
    expect(run.code).toBe(4);
    expect(await Promise.all(['canary-a1', 'canary-b1'].map(statusOf))).toEqual(before);
  });
});

describe('virtgate canary, with KubeVirt\'s VMI CRD', () => {
  beforeAll(async () => {
    await installKubeVirtCrds(admin, { cdi: false, vmis: { kubeconfig: cp.adminKubeconfig } });
  }, 300_000);

  it('--dry-run picks one ready node per class from the real reports, says why each other node is skipped, and creates nothing', async () => {
    const run = await runCli(canary('--dry-run', '--json'));
    expect(run.stderr).not.toContain('virtgate:');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ apiVersion: 'virtgate.io/v1alpha1', kind: 'CanaryRun', results: [] });
    // Neither class ran yet: classes by name (amd before intel); in a class the first name.
    expect(summary.picked).toEqual([
      { node: 'canary-b1', nodeClass: AMD },
      { node: 'canary-a1', nodeClass: INTEL },
    ]);
    expect(summary.skipped).toEqual([
      { node: 'canary-a2', reason: 'ClassPicked' },
      { node: 'canary-cordoned', reason: 'Cordoned' },
      { node: 'canary-down', reason: 'NotReady' },
      { node: 'canary-stale', reason: 'Stale' },
    ]);
    expect(await vmis()).toEqual([]);
    expect((await statusOf('canary-a1')).vmBoot).toBeUndefined();
  });

  it('a run whose launcher the scheduler cannot place ends NotScheduled with its reason, one whose VMI never runs NotStarted; only vmBoot is published, no VMI is left', async () => {
    // A VMI an earlier run left: the sweep deletes it first.
    await custom.createNamespacedCustomObject({
      ...VMI,
      namespace: NS,
      body: { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'canary-leftover', labels: { 'app.kubernetes.io/name': 'virtgate-canary' } }, spec: { domain: { devices: {}, resources: { requests: { memory: '64Mi' } } } } },
    });
    // A fresh scheduler: an earlier file may have left one running, whose watches went through that
    // file's API server restarts and may be in their backoff, so it sees a new pod late. CI saw this
    // run's launcher pod unjudged at the 12 s bound three times, with no other pod pending.
    await cp.control('scheduler/stop');
    await cp.control('scheduler/start');
    const before = { a1: await statusOf('canary-a1'), b1: await statusOf('canary-b1') };

    const running = runCli(canary('--boot-timeout', '12s', '--json'), {}, { timeoutMs: 180_000 });
    // Playing virt-controller: a virt-launcher pod for each VMI, as KubeVirt labels it.
    const launchers = new Map<string, string>();
    const seen = new Map<string, Record<string, unknown>>();
    await waitFor('the run to create both VMIs', async () => {
      for (const vmi of await vmis()) {
        const node = vmi.metadata.labels['virtgate.io/canary-node'];
        if (node !== undefined) seen.set(node, vmi);
        if (node === undefined || launchers.has(node)) continue;
        const pod: V1Pod = virtLauncherPod(
          { useEmulation: false },
          { name: vmi.metadata.name, nodeSelector: { 'kubernetes.io/hostname': node }, labels: { 'kubevirt.io/created-by': vmi.metadata.uid } },
        );
        if (node === 'canary-b1') {
          // This one the kubelet "ran": bound to its node, its compute container running.
          pod.spec = { ...pod.spec!, nodeName: node, nodeSelector: {}, terminationGracePeriodSeconds: 0 };
          const created = await core.createNamespacedPod({ namespace: NS, body: pod });
          const now = new Date();
          await core.replaceNamespacedPodStatus({
            namespace: NS,
            name: created.metadata!.name!,
            body: {
              ...created,
              status: {
                phase: 'Running',
                conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: now }],
                containerStatuses: [{ name: 'compute', image: 'virt-launcher', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: now } } }],
              },
            },
          });
        } else {
          await core.createNamespacedPod({ namespace: NS, body: pod });
        }
        launchers.set(node, pod.metadata!.name!);
      }
      return launchers.size === 2 ? true : undefined;
    }, 30_000, 100);
    // KubeVirt's own CRD kept what the canary asked for (nothing pruned): the nonce, the pinning, the toleration.
    for (const node of ['canary-a1', 'canary-b1']) {
      expect(seen.get(node), node).toMatchObject({
        spec: {
          nodeSelector: { 'kubernetes.io/hostname': node },
          tolerations: [{ key: 'virtgate.io/not-ready', operator: 'Exists' }],
          domain: { firmware: { uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/) }, devices: { logSerialConsole: true, autoattachPodInterface: false } },
          volumes: [{ name: 'canary', containerDisk: { image: IMAGE } }],
        },
      });
    }
    // Playing the kubelet for the bound pod: once its VMI is gone, it stops.
    await waitFor('the VMIs to be deleted', async () => ((await vmis()).length === 0 ? true : undefined), 60_000, 200);
    await core.deleteNamespacedPod({ namespace: NS, name: launchers.get('canary-b1')!, gracePeriodSeconds: 0 }).catch(() => undefined);
    await core.deleteNamespacedPod({ namespace: NS, name: launchers.get('canary-a1')!, gracePeriodSeconds: 0 }).catch(() => undefined);
    const run = await running;
    await cp.control('scheduler/stop');

    expect(run.code, run.stderr).toBe(1);
    const summary = JSON.parse(run.stdout) as { results: Array<Record<string, unknown>>; cost: { cpuSeconds: number; vmSeconds: number } };
    // Both VMIs lived their whole 12 s bound (neither got further), and were deleted promptly after.
    expect(summary.cost.vmSeconds).toBeGreaterThanOrEqual(24);
    expect(summary.cost.vmSeconds).toBeLessThan(24 + 2 * 5);
    expect(summary.cost.cpuSeconds).toBeGreaterThan(0);
    console.log(`canary run, 2 VMIs to the bound: ${summary.cost.cpuSeconds} CPU s, ${summary.cost.vmSeconds} VM s`);
    const byNode = Object.fromEntries(summary.results.map((result) => [result.node, result]));
    expect(byNode['canary-a1']).toMatchObject({ nodeClass: INTEL, status: 'False', reason: 'NotScheduled' });
    // The real scheduler's words: the fake nodes have no KVM device and no kubevirt.io/schedulable label.
    expect(byNode['canary-a1']?.message).toMatch(/^the virt-launcher pod was not scheduled within 12 s: Unschedulable: 0\/\d+ nodes are available: .*(devices\.kubevirt\.io\/kvm|node affinity\/selector)/);
    expect(byNode['canary-b1']).toMatchObject({ nodeClass: AMD, status: 'False', reason: 'NotStarted' });
    expect((byNode['canary-b1']?.seconds as Record<string, number>).launcherRunning).toBeGreaterThan(0);

    for (const [name, nodeClass, reason] of [['canary-a1', INTEL, 'NotScheduled'], ['canary-b1', AMD, 'NotStarted']] as const) {
      const { vmBoot, ...rest } = await statusOf(name);
      const { vmBoot: _none, ...restBefore } = before[name === 'canary-a1' ? 'a1' : 'b1'];
      expect(rest, `${name}: the other status keys are unchanged`).toEqual(restBefore);
      expect(vmBoot).toMatchObject({ status: 'False', reason, nodeClass, classFailedRuns: 1, canaryVersion: expect.any(String) });
    }
    for (const name of ['canary-a2', 'canary-down', 'canary-stale', 'canary-cordoned']) expect((await statusOf(name)).vmBoot, name).toBeUndefined();
    expect(await vmis()).toEqual([]);
  }, 240_000);

  it('a VMI someone else deletes mid-run is VmiDeleted, published on its node', async () => {
    // One class this run: the intel class's never-tried canary-a2 goes before amd, whose canary-b1 ran.
    const running = runCli(canary('--max-vmis', '1', '--boot-timeout', '2m', '--json'), {}, { timeoutMs: 120_000 });
    const [vmi] = await waitFor('the run to create its VMI', async () => {
      const items = await vmis();
      return items.length === 1 ? items : undefined;
    }, 30_000, 100);
    expect(vmi?.metadata.labels['virtgate.io/canary-node']).toBe('canary-a2');
    await custom.deleteNamespacedCustomObject({ ...VMI, namespace: NS, name: vmi!.metadata.name });
    const run = await running;
    expect(run.code, run.stderr).toBe(1);
    expect((JSON.parse(run.stdout) as { results: unknown[] }).results).toEqual([expect.objectContaining({ node: 'canary-a2', reason: 'VmiDeleted' })]);
    expect((await statusOf('canary-a2')).vmBoot).toMatchObject({ status: 'False', reason: 'VmiDeleted', message: 'the VMI was deleted by someone else before the guest printed its marker', nodeClass: INTEL });
    expect(await vmis()).toEqual([]);
  }, 180_000);

  it('SIGTERM mid-run deletes the run\'s VMIs and publishes nothing', async () => {
    const before = { a1: await statusOf('canary-a1'), b1: await statusOf('canary-b1') };
    const child = execa(process.execPath, [CLI_MAIN, ...canary('--boot-timeout', '5m')], { cwd: REPO_ROOT, reject: false, timeout: 120_000 });
    // Rotation: canary-a2 ran last, so its class's oldest run is canary-a1's again.
    const created = await waitFor('the run to create its VMIs', async () => {
      const items = await vmis();
      return items.length === 2 ? items : undefined;
    }, 30_000, 100);
    expect(created.map((vmi) => vmi.metadata.labels['virtgate.io/canary-node']).sort()).toEqual(['canary-a1', 'canary-b1']);
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode, String(result.stderr)).toBe(1);
    expect(await vmis()).toEqual([]);
    expect(await statusOf('canary-a1')).toEqual(before.a1);
    expect(await statusOf('canary-b1')).toEqual(before.b1);
  }, 180_000);
});
