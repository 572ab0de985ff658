/**
 * `virtgate check --node` on the real node, before anything of the chart is installed: the CLI
 * creates the one-off pod with the locally built agent image, the real kubelet runs it on this
 * machine through the /host mounts, and the command prints what the check in the pod printed,
 * exits with its exit code, and deletes the pod. The truth is this machine as test code reads it
 * for itself (host-truth.ts: direct opens, /proc, Python's KVM ioctls), not anything virtgate computes.
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { CHECK_POD_LABELS } from '../../cli/check-node/pod-spec.ts';
import { runCli } from '../lab/cli.ts';
import { ensureNamespace } from '../lab/controlplane/identities.ts';
import { NODE_LAYOUT } from '../lab/node/layout.ts';
import { disagreements, type HostReading, readHost, statusesOf } from './host-truth.ts';

const node = inject('realNode');
const admin = new KubeConfig();
admin.loadFromFile(node.controlPlane.adminKubeconfig);
const core = admin.makeApiClient(CoreV1Api);
// The label the CLI puts on its own pod: imported so that the test finds exactly the pods the
// product makes (a copy could drift and find none, and "none left" would then pass for nothing).
// Not an expectation of the verdict (test/lab/support/node-truth-imports.test.ts).
// The suite's prefix: cleanup.sh finds the pod logs of its namespaces.
const NAMESPACE = `${NODE_LAYOUT.namespacePrefix}check`;
const SELECTOR = Object.entries(CHECK_POD_LABELS)
  .map(([key, value]) => `${key}=${value}`)
  .join(',');

let host: HostReading;

beforeAll(async () => {
  await ensureNamespace(admin, NAMESPACE);
  host = readHost();
});

const checkOnNode = (...args: string[]) =>
  runCli(['check', '--node', node.nodeName, '--kubeconfig', node.controlPlane.adminKubeconfig, '--namespace', NAMESPACE, '--image', node.images.agent.ref, '--timeout', '3m', ...args], {}, { timeoutMs: 240_000 });

const podsLeft = async () => (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: SELECTOR })).items.map((pod) => pod.metadata?.name);

describe('virtgate check --node on the real node', () => {
  it('--json: a verdict that agrees with what this machine is, from a pod that is gone afterwards', async () => {
    const started = Date.now();
    const outcome = await checkOnNode('--json');
    const seconds = (Date.now() - started) / 1000;
    process.stderr.write(`[check-node] --json took ${seconds.toFixed(1)} s\n`);
    expect(outcome.stderr).toBe('');
    const report = JSON.parse(outcome.stdout) as { kind?: string; hostRoot?: string; tier?: string; ready?: boolean; checks?: Array<{ id: string; status: string }> };
    expect(report.kind).toBe('CheckResult');
    expect(report.hostRoot).toBe('/host');
    expect(disagreements(host, { caller: 'check --node', tier: report.tier, ready: report.ready, checks: statusesOf(report.checks) })).toEqual([]);
    expect(outcome.code).toBe(report.ready ? 0 : 1);
    expect(await podsLeft()).toEqual([]);
  });

  it('the table, as `virtgate check` prints it, with the exit code its last line says', async () => {
    const outcome = await checkOnNode();
    expect(outcome.stderr).toBe('');
    for (const id of ['cpu.virtualization', 'dev.kvm', 'dev.tun', 'dev.vhost-net', 'kvm.run']) expect(outcome.stdout).toContain(id);
    const last = outcome.stdout.trim().split('\n').at(-1) ?? '';
    // Without usable KVM the CLI's default policy says not ready; with it, either (another check may fail), and the code follows the line.
    expect(last).toMatch(host.kvmUsable ? /^(READY|NOT READY)/ : /^NOT READY/);
    expect(outcome.code).toBe(/^READY/.test(last) ? 0 : 1);
    expect(await podsLeft()).toEqual([]);
  });
});
