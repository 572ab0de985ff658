/**
 * `virtgate check --node` on the real node, before anything of the chart is installed: the CLI
 * creates the one-off pod with the locally built agent image, the real kubelet runs it on this
 * machine through the /host mounts, and the command prints what the check in the pod printed,
 * exits with its exit code, and deletes the pod. The truth is `virtgate check --json` run on this
 * machine outside any container (the same truth the chart tests hold the agent to).
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { CHECK_POD_LABELS } from '../../cli/check-node/pod-spec.ts';
import { runCli } from '../lab/cli.ts';
import { ensureNamespace } from '../lab/controlplane/identities.ts';
import { NODE_LAYOUT } from '../lab/node/layout.ts';
import { checkStatuses, hostVerdict, type Verdict } from '../lab/node/release.ts';

const node = inject('realNode');
const admin = new KubeConfig();
admin.loadFromFile(node.controlPlane.adminKubeconfig);
const core = admin.makeApiClient(CoreV1Api);
// The suite's prefix: cleanup.sh finds the pod logs of its namespaces.
const NAMESPACE = `${NODE_LAYOUT.namespacePrefix}check`;
const SELECTOR = Object.entries(CHECK_POD_LABELS)
  .map(([key, value]) => `${key}=${value}`)
  .join(',');

let truth: Verdict;

beforeAll(async () => {
  await ensureNamespace(admin, NAMESPACE);
  truth = await hostVerdict();
});

const checkOnNode = (...args: string[]) =>
  runCli(['check', '--node', node.nodeName, '--kubeconfig', node.controlPlane.adminKubeconfig, '--namespace', NAMESPACE, '--image', node.images.agent.ref, '--timeout', '3m', ...args], {}, { timeoutMs: 240_000 });

const podsLeft = async () => (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: SELECTOR })).items.map((pod) => pod.metadata?.name);

describe('virtgate check --node on the real node', () => {
  it('--json: the verdict this machine gets outside a container, from a pod that is gone afterwards', async () => {
    const started = Date.now();
    const outcome = await checkOnNode('--json');
    const seconds = (Date.now() - started) / 1000;
    process.stderr.write(`[check-node] --json took ${seconds.toFixed(1)} s\n`);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(truth.ready ? 0 : 1);
    const report = JSON.parse(outcome.stdout) as Verdict & { kind?: string; hostRoot?: string };
    expect(report.kind).toBe('CheckResult');
    expect(report.hostRoot).toBe('/host');
    expect(report.tier).toBe(truth.tier);
    expect(report.ready).toBe(truth.ready);
    expect(checkStatuses(report)).toEqual(checkStatuses(truth));
    expect(await podsLeft()).toEqual([]);
  });

  it('the table, as `virtgate check` prints it, with the same exit code', async () => {
    const outcome = await checkOnNode();
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(truth.ready ? 0 : 1);
    for (const id of Object.keys(checkStatuses(truth))) expect(outcome.stdout).toContain(id);
    expect(outcome.stdout.trim().split('\n').at(-1)).toMatch(truth.ready ? /^READY/ : /^NOT READY/);
    expect(await podsLeft()).toEqual([]);
  });
});
