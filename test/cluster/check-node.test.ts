/**
 * `virtgate check --node` on each node of the three-node cluster, before anything of the chart is
 * installed: the CLI creates the one-off pod with the locally built agent image, that node's
 * kubelet runs it through the /host mounts, and the command prints what the check in the pod
 * printed, exits with its exit code, and deletes the pod. The truth is each node's host as test
 * code reads it for itself, inside that node's namespaces (host-truth.ts run there: direct opens
 * of its /dev, /proc, Python's KVM ioctls), not anything virtgate computes; the third node's host
 * has no /dev/net/tun and no /dev/kvm (test/lab/cluster/layout.ts).
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECK_POD_LABELS } from '../../cli/check-node/pod-spec.ts';
import { runCli } from '../lab/cli.ts';
import { CLUSTER_LAYOUT, enterNode } from '../lab/cluster/layout.ts';
import { type ClusterContext, useCluster } from '../lab/cluster/use.ts';
import { ensureNamespace } from '../lab/controlplane/identities.ts';
import { disagreements, type HostReading, readHostIn, statusesOf } from '../node/host-truth.ts';

// The suite's prefix: the cluster's cleanup finds the pod logs of its namespaces.
const NAMESPACE = `${CLUSTER_LAYOUT.namespacePrefix}check`;
// The label the CLI puts on its own pod: imported so that the test finds exactly the pods the
// product makes (a copy could drift and find none, and "none left" would then pass for nothing).
// Not an expectation of the verdict.
const SELECTOR = Object.entries(CHECK_POD_LABELS)
  .map(([key, value]) => `${key}=${value}`)
  .join(',');
const THIRD = CLUSTER_LAYOUT.nodes[2]!;

let cluster: ClusterContext;
let core: CoreV1Api;
const hosts = new Map<string, HostReading>();

beforeAll(async () => {
  cluster = await useCluster();
  const admin = new KubeConfig();
  admin.loadFromFile(cluster.controlPlane.adminKubeconfig);
  core = admin.makeApiClient(CoreV1Api);
  await ensureNamespace(admin, NAMESPACE);
  for (const layout of CLUSTER_LAYOUT.nodes) hosts.set(layout.name, readHostIn(enterNode(layout)));
  // The reading itself sees what the layout hides: the third node's host has neither device.
  expect(hosts.get(THIRD.name)).toMatchObject({ tun: 'missing', kvm: 'missing' });
}, 600_000);

const checkOnNode = (node: string, ...args: string[]) =>
  runCli(['check', '--node', node, '--kubeconfig', cluster.controlPlane.adminKubeconfig, '--namespace', NAMESPACE, '--image', cluster.images.agent.ref, '--timeout', '3m', ...args], {}, { timeoutMs: 240_000 });

const podsLeft = async () => (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: SELECTOR })).items.map((pod) => pod.metadata?.name);

describe('virtgate check --node on each of three nodes', () => {
  it('--json: on every node a verdict that agrees with what that node\'s host is, from pods that are gone afterwards', async () => {
    const started = Date.now();
    // One pod per node, all at once, as a user checking a pool would.
    const outcomes = await Promise.all(CLUSTER_LAYOUT.nodes.map(async ({ name }) => ({ name, outcome: await checkOnNode(name, '--json') })));
    process.stderr.write(`[check-node] --json on three nodes at once took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    for (const { name, outcome } of outcomes) {
      expect(outcome.stderr, name).toBe('');
      const report = JSON.parse(outcome.stdout) as { kind?: string; hostRoot?: string; tier?: string; ready?: boolean; checks?: Array<{ id: string; status: string }> };
      expect(report.kind, name).toBe('CheckResult');
      expect(report.hostRoot, name).toBe('/host');
      expect(disagreements(hosts.get(name)!, { caller: 'check --node', tier: report.tier, ready: report.ready, checks: statusesOf(report.checks) }), name).toEqual([]);
      expect(outcome.code, name).toBe(report.ready ? 0 : 1);
    }
    expect(await podsLeft()).toEqual([]);
  });

  it('the table, as `virtgate check` prints it, with the exit code its last line says: NOT READY on the node without tun', async () => {
    const outcome = await checkOnNode(THIRD.name);
    expect(outcome.stderr).toBe('');
    for (const id of ['cpu.virtualization', 'dev.kvm', 'dev.tun', 'dev.vhost-net', 'kvm.run']) expect(outcome.stdout).toContain(id);
    const last = outcome.stdout.trim().split('\n').at(-1) ?? '';
    // No tun on that host (the reading above): not ready whatever the machine's KVM.
    expect(last).toMatch(/^NOT READY/);
    expect(outcome.code).toBe(1);
    expect(await podsLeft()).toEqual([]);
  });
});
