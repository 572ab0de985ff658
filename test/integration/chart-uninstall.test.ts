/**
 * `helm uninstall` leaves nothing of virtgate's on the nodes. Two agents (pod-bound tokens of the
 * chart's agent ServiceAccount) publish on two nodes that also carry a foreign label and foreign
 * taints; then the real `helm uninstall` runs. No kubelet or job controller runs here, so when
 * helm creates the post-delete prune Job the test does that Job's work: it runs the Job's own
 * command (`virtgate prune ...`) with a pod-bound token of the Job's ServiceAccount, which proves
 * the hook's RBAC, then records the Job complete so helm can finish.
 *
 * A custom prefix and the bootstrap taint policy: the one prefix must reach the agents, the
 * admission policy and the prune Job alike, and the policy must let the agent lift the
 * registration taint it is configured for.
 */
import path from 'node:path';
import {
  AdmissionregistrationV1Api,
  ApiextensionsV1Api,
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  RbacAuthorizationV1Api,
  type V1Job,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, startAgentProcess } from '../lab/processes/launch.ts';
import { agentArgsFromDaemonSet } from '../lab/chart/helm.ts';
import { keysUnder, kubeConfigFrom, markJobComplete, nodeValidationNames, nodeView, waitForAgentPolicy } from '../lab/chart/cluster.ts';
import { CHART_DIR, helm, helmComplaints, helmOk } from '../lab/chart/helm.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode, podBoundIdentity } from '../lab/controlplane/identities.ts';
import { buildHost, type HostProfile } from '../lab/hosts/build-host.ts';
import { runCli } from '../lab/cli.ts';
import { statusOfCall, waitFor } from '../lab/support/wait.ts';
import { useTempDirs } from '../lab/support/temp-dirs.ts';

const tempDir = useTempDirs();

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);

const NS = 'chart-uninstall';
const RELEASE = 'virtgate-uninstall';
const PREFIX = 'uninstall.virtgate.test';
const REGISTERING = 'chart.test/registering';
const READY_NODE = 'chart-uninstall-ready';
const FAILING_NODE = 'chart-uninstall-failing';
const FOREIGN_TAINT = 'chart.test/dedicated=db:NoSchedule';
const REGISTERING_TAINT = `${REGISTERING}=:NoSchedule`;

const agents: AgentProcess[] = [];

async function startAgentOn(node: string, profile: HostProfile): Promise<AgentProcess> {
  const identity = await podBoundIdentity(admin, cp, NS, `${RELEASE}-agent`, node);
  const daemonSet = await admin.makeApiClient(AppsV1Api).readNamespacedDaemonSet({ namespace: NS, name: `${RELEASE}-agent` });
  const host = await buildHost(await tempDir('virtgate-chart-host-'), profile);
  const agent = await startAgentProcess(
    [...agentArgsFromDaemonSet(daemonSet.spec?.template.spec?.containers[0]?.args, host.cliArgs), '--kubeconfig', identity.kubeconfig],
    { NODE_NAME: node },
  );
  agents.push(agent);
  return agent;
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: NS, labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } } });
  for (const name of [READY_NODE, FAILING_NODE]) {
    await createNode(admin, name, {
      labels: { 'chart.test/team': 'vm' },
      taints: [
        { key: 'chart.test/dedicated', value: 'db', effect: 'NoSchedule' },
        { key: REGISTERING, effect: 'NoSchedule' },
      ],
    });
  }
  await helmOk(
    cp.binDir,
    [
      // The CRD may exist already, created by an earlier test file without Helm: take it over.
      'install', RELEASE, CHART_DIR, '--namespace', NS, '--take-ownership',
      '--set', `prefix=${PREFIX}`,
      '--set', 'agent.taint.policy=bootstrap',
      '--set', `agent.taint.bootstrapKey=${REGISTERING}`,
      '--set', 'agent.virtHostValidate.enabled=false',
    ],
    cp.adminKubeconfig,
  );
  const probe = await podBoundIdentity(admin, cp, NS, `${RELEASE}-agent`, READY_NODE);
  await waitForAgentPolicy(kubeConfigFrom(probe.kubeconfig).makeApiClient(CoreV1Api), FAILING_NODE);
});

afterAll(async () => {
  for (const agent of agents) await agent.stop();
});

describe('helm uninstall', () => {
  it('the agents publish under the custom prefix; the ready one lifts its registration taint', async () => {
    await startAgentOn(READY_NODE, 'intel-metal');
    await startAgentOn(FAILING_NODE, 'no-vmx');
    const ready = await waitFor('the agent to publish on the ready node and lift the registration taint', async () => {
      const view = await nodeView(core, READY_NODE);
      return view.labels[`${PREFIX}/ready`] === 'true' && view.conditions.VirtualizationReady && !view.taints.includes(REGISTERING_TAINT) ? view : undefined;
    }, 60_000);
    expect(ready.conditions.VirtualizationReady).toBe('True');
    expect(ready.annotations[`${PREFIX}/owned`]).toContain(`${PREFIX}/ready`);
    expect(ready.taints).toEqual([FOREIGN_TAINT]);
    const failing = await waitFor('the agent to publish on the failing node', async () => {
      const view = await nodeView(core, FAILING_NODE);
      return view.labels[`${PREFIX}/ready`] === 'false' && view.conditions.VirtualizationReady ? view : undefined;
    }, 60_000);
    // Not ready: the bootstrap policy keeps the registration taint.
    expect(failing.taints).toEqual([FOREIGN_TAINT, REGISTERING_TAINT]);
    await waitFor('both NodeValidations', async () => {
      const names = await nodeValidationNames(admin);
      return names.includes(READY_NODE) && names.includes(FAILING_NODE) ? true : undefined;
    });
  });

  it('virtgate prune --dry-run says what it would remove and removes nothing', async () => {
    const outcome = await runCli(['prune', '--dry-run', `--prefix=${PREFIX}`, '--kubeconfig', cp.adminKubeconfig]);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(new RegExp(`node ${READY_NODE}: would remove labels ${PREFIX}/cpu-vendor, .*; the ownership annotation; condition VirtualizationReady`));
    expect(outcome.stdout).toContain(`nodevalidation ${FAILING_NODE}: would delete`);
    expect(outcome.stdout).toContain('(dry run)');
    const view = await nodeView(core, READY_NODE);
    expect(view.labels[`${PREFIX}/ready`]).toBe('true');
    expect(view.conditions.VirtualizationReady).toBe('True');
    expect(await nodeValidationNames(admin)).toContain(READY_NODE);
  });

  it("runs the post-delete prune Job with its own identity, then leaves no label, taint, annotation, condition or NodeValidation of virtgate's", async () => {
    const batch = admin.makeApiClient(BatchV1Api);
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    const failuresBefore = await Promise.all(agents.map(async (agent) => (await agent.metric('virtgate_publish_failures_total')) ?? 0));
    const uninstall = helm(cp.binDir, ['uninstall', RELEASE, '--namespace', NS, '--timeout', '3m'], cp.adminKubeconfig);

    const job = await waitFor<V1Job>('helm to create the prune hook Job', async () => {
      const status = await statusOfCall(() => batch.readNamespacedJob({ namespace: NS, name: `${RELEASE}-prune` }));
      return status === 0 ? batch.readNamespacedJob({ namespace: NS, name: `${RELEASE}-prune` }) : undefined;
    }, 60_000);
    // post-delete: the agents' DaemonSet and RBAC are already gone, so a running agent cannot put anything back.
    expect(await statusOfCall(() => admin.makeApiClient(AppsV1Api).readNamespacedDaemonSet({ namespace: NS, name: `${RELEASE}-agent` }))).toBe(404);
    expect(await statusOfCall(() => rbac.readClusterRoleBinding({ name: `${RELEASE}-agent` }))).toBe(404);

    // Play the Job's pod: its command, its ServiceAccount's pod-bound token.
    const pod = job.spec?.template.spec;
    expect(pod?.serviceAccountName).toBe(`${RELEASE}-prune`);
    const args = pod?.containers[0]?.args ?? [];
    expect(args).toEqual(['prune', `--prefix=${PREFIX}`]);
    const identity = await podBoundIdentity(admin, cp, NS, pod?.serviceAccountName ?? '', READY_NODE);
    const pruned = await runCli([...args, '--kubeconfig', identity.kubeconfig]);
    expect(pruned.stderr).toBe('');
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toMatch(new RegExp(`node ${READY_NODE}: removed labels ${PREFIX}/cpu-vendor, .*; the ownership annotation; condition VirtualizationReady`));
    expect(pruned.stdout).toContain(`nodevalidation ${READY_NODE}: deleted`);
    expect(pruned.stdout).toContain(`nodevalidation ${FAILING_NODE}: deleted`);
    expect(pruned.stdout).toMatch(/0 failed; \d+ NodeValidations deleted, 0 failed/);

    // Each agent saw its labels go (its watch still runs), tried to put them back and was refused.
    for (const [index, agent] of agents.entries()) {
      await waitFor('the agent to be refused when it re-publishes', async () =>
        ((await agent.metric('virtgate_publish_failures_total')) ?? 0) > (failuresBefore[index] ?? 0) ? true : undefined, 30_000);
    }

    await markJobComplete(admin, NS, `${RELEASE}-prune`);
    const outcome = await uninstall;
    expect(helmComplaints(outcome.stderr)).toBe('');
    expect(outcome.stdout).toContain(`release "${RELEASE}" uninstalled`);
    expect(outcome.code).toBe(0);

    for (const node of [READY_NODE, FAILING_NODE]) {
      const view = await nodeView(core, node);
      expect(keysUnder(PREFIX, view), node).toEqual([]);
      expect(view.conditions, node).toEqual({ Ready: 'True' });
      expect(view.labels['chart.test/team'], node).toBe('vm');
      expect(view.taints, node).toContain(FOREIGN_TAINT);
    }
    // The registration taint is no more virtgate's than the foreign one: prune leaves it.
    expect((await nodeView(core, FAILING_NODE)).taints).toContain(REGISTERING_TAINT);
    expect(await nodeValidationNames(admin)).toEqual([]);

    // Hook objects go when the Job succeeds; the release's objects are gone.
    expect(await statusOfCall(() => batch.readNamespacedJob({ namespace: NS, name: `${RELEASE}-prune` }))).toBe(404);
    expect(await statusOfCall(() => core.readNamespacedServiceAccount({ namespace: NS, name: `${RELEASE}-prune` }))).toBe(404);
    expect(await statusOfCall(() => rbac.readClusterRole({ name: `${RELEASE}-prune` }))).toBe(404);
    expect(await statusOfCall(() => rbac.readClusterRole({ name: `${RELEASE}-agent` }))).toBe(404);
    const admission = admin.makeApiClient(AdmissionregistrationV1Api);
    expect(await statusOfCall(() => admission.readValidatingAdmissionPolicy({ name: `${RELEASE}-agent-node` }))).toBe(404);
    // Except the CRD (helm.sh/resource-policy: keep): deleting it would delete every NodeValidation.
    expect(outcome.stdout).toContain('nodevalidations.virtgate.io');
    expect(await statusOfCall(() => admin.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name: 'nodevalidations.virtgate.io' }))).toBe(0);

    // The namespace was the user's before the install: it stays, with its own labels, not terminating.
    const namespace = await core.readNamespace({ name: NS });
    expect(namespace.status?.phase).toBe('Active');
    expect(namespace.metadata?.deletionTimestamp).toBeUndefined();
    expect(namespace.metadata?.labels?.['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });

  it('virtgate prune again finds nothing to remove', async () => {
    const outcome = await runCli(['prune', `--prefix=${PREFIX}`, '--kubeconfig', cp.adminKubeconfig]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(`node ${READY_NODE}: nothing to remove`);
    expect(outcome.stdout).toMatch(/virtgate prune: 0 of \d+ nodes cleaned, 0 failed; 0 NodeValidations deleted, 0 failed/);
  });
});
