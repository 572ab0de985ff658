/**
 * `virtgate check --node` against the real API server, with no kubelet: the pod it creates is
 * read back while it exists (pinned to the node, privileged, the chart's /host mounts, no host
 * PID, tolerating every taint, never restarted), it stays Pending, and on --timeout the command
 * deletes it and exits 4. The real run on a real node is test/node/check-node.test.ts.
 */
import { CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECK_NODE_ANNOTATION, CHECK_POD_LABELS } from '../../cli/check-node/pod-spec.ts';
import { DEFAULT_CHECK_IMAGE } from '../../cli/check-node/settings.ts';
import { VIRTGATE_VERSION } from '../../core/package-info.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createNode, createServiceAccount, ensureNamespace } from '../lab/controlplane/identities.ts';
import { writeKubeconfig } from '../lab/controlplane/kubeconfig.ts';
import { runCli } from '../lab/cli.ts';
import { CLI_MAIN, REPO_ROOT } from '../lab/hosts/paths.ts';

const cp = useControlPlane();
const NODE = 'check-node-pending';
const NAMESPACE = 'check-node';
const SELECTOR = Object.entries(CHECK_POD_LABELS)
  .map(([key, value]) => `${key}=${value}`)
  .join(',');
let admin: KubeConfig;
let core: CoreV1Api;

beforeAll(async () => {
  admin = cp.adminConfig();
  core = admin.makeApiClient(CoreV1Api);
  await ensureNamespace(admin, NAMESPACE);
  await createNode(admin, NODE, { taints: [{ key: 'example.com/dedicated', value: 'virt', effect: 'NoSchedule' }] });
});

const checkPods = async () => (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: SELECTOR })).items;

/** The first check pod, once the running command has created it. */
async function podAppearing(withinMs: number): Promise<V1Pod | undefined> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    const [pod] = await checkPods();
    if (pod) return pod;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}

describe('virtgate check --node (no kubelet: the pod stays Pending)', () => {
  it('creates the documented pod, and deletes it on --timeout with exit 4', async () => {
    expect(await checkPods()).toEqual([]);
    const run = runCli(['check', '--node', NODE, '--kubeconfig', cp.adminKubeconfig, '--namespace', NAMESPACE, '--timeout', '8s', '--json', '--allow-emulation', '--no-vhv']);
    // Read the pod back while the command waits for it.
    const seen = await podAppearing(8_000);
    const outcome = await run;
    if (!seen) throw new Error(`no check pod appeared; the command said: ${outcome.stderr}`);

    expect(seen.metadata?.name).toMatch(new RegExp(`^virtgate-check-${NODE}-[a-z0-9]{5}$`));
    expect(seen.metadata?.annotations?.[CHECK_NODE_ANNOTATION]).toBe(NODE);
    const spec = seen.spec;
    expect(spec?.nodeName).toBe(NODE);
    expect(spec?.hostPID ?? false).toBe(false);
    expect(spec?.restartPolicy).toBe('Never');
    expect(spec?.automountServiceAccountToken).toBe(false);
    expect(spec?.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(spec?.activeDeadlineSeconds).toBeGreaterThan(8);
    const [container, ...others] = spec?.containers ?? [];
    expect(others).toEqual([]);
    expect(container?.image).toBe(DEFAULT_CHECK_IMAGE);
    expect(DEFAULT_CHECK_IMAGE).toBe(`ghcr.io/virtgate/virtgate-agent:${VIRTGATE_VERSION}`);
    expect(container?.args).toEqual(['check', '--host-root=/host', '--json', '--allow-emulation', '--min-kernel=4.18', '--no-vhv']);
    expect(container?.securityContext?.privileged).toBe(true);
    // The chart's agent mounts (templates/agent/daemonset.yaml), written out here as the truth.
    expect(container?.volumeMounts?.map((mount) => `${mount.mountPath}:${mount.readOnly}`).sort()).toEqual(['/host/dev:true', '/host/etc/os-release:true', '/host/proc:true', '/host/sys:true']);
    expect(spec?.volumes?.map((volume) => `${volume.hostPath?.path}:${volume.hostPath?.type}`).sort()).toEqual(['/dev:Directory', '/etc/os-release:File', '/proc:Directory', '/sys:Directory']);

    expect(outcome.code).toBe(4);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(new RegExp(`^virtgate: the check pod ${NAMESPACE}/virtgate-check-${NODE}-[a-z0-9]{5} on node ${NODE} did not finish within 8 s \\(Pending[^)]*\\); it is deleted\\n$`));
    // Deleted: gone at once (grace period 0 and no kubelet to wait for).
    expect(await checkPods()).toEqual([]);
  });

  it('Ctrl-C (SIGINT) while it waits: the pod is deleted, exit 130', async () => {
    // The CLI as a user's shell runs it, so the signal reaches node itself.
    const child = execa(process.execPath, [CLI_MAIN, 'check', '--node', NODE, '--kubeconfig', cp.adminKubeconfig, '--namespace', NAMESPACE, '--timeout', '1m'], { cwd: REPO_ROOT, reject: false, timeout: 60_000 });
    const seen = await podAppearing(15_000);
    child.kill('SIGINT');
    const outcome = await child;
    expect(seen, `no check pod appeared; the command said: ${String(outcome.stderr)}`).toBeDefined();
    expect(outcome.exitCode).toBe(130);
    expect(outcome.stdout).toBe('');
    expect(await checkPods()).toEqual([]);
  });

  it('a node that does not exist: exit 2 at once, no pod', async () => {
    const outcome = await runCli(['check', '--node', 'no-such-node', '--kubeconfig', cp.adminKubeconfig, '--namespace', NAMESPACE]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe('virtgate: --node no-such-node: no such node (kubectl get nodes lists them)\n');
    expect(await checkPods()).toEqual([]);
  });

  it('a ServiceAccount that may not create pods: exit 4 naming the permissions, no pod', async () => {
    await createServiceAccount(admin, NAMESPACE, 'no-pods');
    const review = await core.createNamespacedServiceAccountToken({ name: 'no-pods', namespace: NAMESPACE, body: { spec: { audiences: [], expirationSeconds: 3600 } } });
    const token = review.status?.token;
    if (!token) throw new Error('TokenRequest returned no token');
    const kubeconfig = await writeKubeconfig(`${cp.dir}/check-node-no-pods.kubeconfig`, cp.server, cp.caFile, { token });
    const outcome = await runCli(['check', '--node', NODE, '--kubeconfig', kubeconfig, '--namespace', NAMESPACE]);
    expect(outcome.code).toBe(4);
    expect(outcome.stderr).toMatch(/^virtgate: not allowed to create a pod in namespace check-node \(HTTP 403\): .*; virtgate check --node needs create, get, delete on pods and get on pods\/log in the --namespace\n$/);
    expect(await checkPods()).toEqual([]);
  });
});
