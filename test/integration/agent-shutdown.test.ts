/**
 * SIGTERM while a publish is in flight: the agent waits for it up to --shutdown-grace, then exits
 * 0. The real API server makes the write slow: a validating admission webhook
 * (test/lab/support/slow-webhook.ts) holds every UPDATE of this file's Nodes for HOLD_MS, so the
 * agent's Node patch is in flight that long. The test's own clock, from the signal to the
 * process's exit, and the Node as the API server holds it afterwards are the truth.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AdmissionregistrationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeKeys } from '../../core/kube/names.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode } from '../lab/controlplane/identities.ts';
import { buildHost, removeDevice } from '../lab/hosts/build-host.ts';
import { type AgentProcess, startAgentProcess } from '../lab/processes/launch.ts';
import { agentIdentity } from '../lab/support/agent-identity.ts';
import { installCrd } from '../lab/support/crds.ts';
import { type SlowWebhook, startSlowWebhook } from '../lab/support/slow-webhook.ts';
import { waitFor } from '../lab/support/wait.ts';

const cp = useControlPlane();
const admin = cp.adminConfig();
const core = admin.makeApiClient(CoreV1Api);
const keys = nodeKeys();
const HOLD_MS = 6_000;
const SLOW_LABEL = 'test.virtgate.io/slow-writes';
const WEBHOOK = 'virtgate-test-slow-node-writes';
let webhook: SlowWebhook;
const running: AgentProcess[] = [];

beforeAll(async () => {
  await installCrd(admin);
  webhook = await startSlowWebhook(path.join(cp.dir, 'pki'), HOLD_MS);
  await admin.makeApiClient(AdmissionregistrationV1Api).createValidatingWebhookConfiguration({
    body: {
      metadata: { name: WEBHOOK },
      webhooks: [
        {
          name: 'slow-node-writes.test.virtgate.io',
          clientConfig: { url: webhook.url, caBundle: (await readFile(cp.caFile)).toString('base64') },
          rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['nodes'], scope: 'Cluster' }],
          objectSelector: { matchLabels: { [SLOW_LABEL]: 'true' } },
          // Fail, not Ignore: a webhook that does not answer must not make the writes fast unnoticed.
          failurePolicy: 'Fail',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          timeoutSeconds: 10,
        },
      ],
    },
  });
});

afterAll(async () => {
  await Promise.all(running.map((agent) => agent.stop()));
  await admin.makeApiClient(AdmissionregistrationV1Api).deleteValidatingWebhookConfiguration({ name: WEBHOOK }).catch(() => undefined);
  await webhook?.close();
});

/**
 * An agent on a node whose Node writes the webhook holds, published ready; then its host loses
 * /dev/kvm, and the SIGTERM goes out as soon as the agent logs the label patch it is sending.
 * Returns the milliseconds from the signal to the exit, and the exit code.
 */
async function stopDuringNodeWrite(name: string, grace: string): Promise<{ elapsedMs: number; code: number | null; agent: AgentProcess }> {
  const host = await buildHost(await mkdtemp(path.join(os.tmpdir(), `${name}-`)), 'intel-metal');
  await createNode(admin, name, { labels: { [SLOW_LABEL]: 'true' } });
  const identity = await agentIdentity(admin, cp, name);
  const agent = await startAgentProcess(['--node-name', name, '--kubeconfig', identity.kubeconfig, ...host.cliArgs, '--no-vhv', '--interval', '10s', '--jitter', '0', '--shutdown-grace', grace]);
  running.push(agent);
  await waitFor(`${name} to be labelled ready=true`, async () => ((await core.readNode({ name })).metadata?.labels?.[keys.labels.ready] === 'true' ? true : undefined), 60_000);
  const before = agent.logs.length;
  await removeDevice(host.root, 'kvm');
  await waitFor(`${name}'s agent to send the label patch`, async () => (agent.logs.slice(before).some((line) => line.msg === 'updating node labels') ? true : undefined), 30_000, 20);
  const signalled = Date.now();
  const code = await agent.stop();
  return { elapsedMs: Date.now() - signalled, code, agent };
}

describe('virtgate agent on SIGTERM with a write in flight', () => {
  it('waits for the write that finishes within --shutdown-grace, then exits 0 with it published', async () => {
    const { elapsedMs, code, agent } = await stopDuringNodeWrite('agent-shutdown-waits', '20s');
    expect(code, agent.output()).toBe(0);
    // Held HOLD_MS by the webhook from about when the agent logged it: the agent waited for it.
    expect(elapsedMs).toBeGreaterThanOrEqual(HOLD_MS - 1_000);
    expect(elapsedMs).toBeLessThan(20_000);
    expect((await core.readNode({ name: 'agent-shutdown-waits' })).metadata?.labels?.[keys.labels.ready]).toBe('false');
  });

  it('exits 0 once --shutdown-grace is over, without waiting for a write that takes longer', async () => {
    const { elapsedMs, code, agent } = await stopDuringNodeWrite('agent-shutdown-grace', '2s');
    expect(code, agent.output()).toBe(0);
    expect(elapsedMs).toBeGreaterThanOrEqual(2_000 - 100);
    expect(elapsedMs, agent.output()).toBeLessThan(HOLD_MS - 1_000);
    // Nothing after the exit: once the held write's time is over, the condition still says what it said.
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    const condition = (await core.readNode({ name: 'agent-shutdown-grace' })).status?.conditions?.find((c) => c.type === 'VirtualizationReady');
    expect(condition?.status, agent.output()).toBe('True');
  });
});
