/**
 * `virtgate check --node NAME`: create the check pod on that node, wait for it to end, print its
 * output (the table or the JSON `virtgate check` printed in it), delete it. The pod is deleted on
 * every way out: done, timed out, Ctrl-C or SIGTERM, an error.
 */
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { apiFailure } from '../../core/kube/api-error.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { type CheckSettings, checkSettings } from '../settings/check.ts';
import { configOf } from '../settings/flags.ts';
import { asUsageError, ClusterUnreachableError, EXIT, UsageError } from '../usage-error.ts';
import { CHECK_POD_CONTAINER, checkPod, podCheckArgs } from './pod-spec.ts';
import { checkNodeSettings } from './settings.ts';

const POLL_MS = 1000;
/** The kubelet's own deadline is a little longer than ours, so the CLI, when alive, always ends it first. */
const DEADLINE_MARGIN_SECONDS = 30;
/** Exit codes after a signal, as a shell reports them (128 + the signal's number). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/** The check flags that name files or programs on this machine mean nothing in the pod. */
function refuseLocalOnly(check: CheckSettings): void {
  const local = [
    ['--host-root', check.hostRoot !== checkSettings.defaults.hostRoot],
    ['--vhv-output', check.vhv.output !== undefined],
    ['--vhv-command', check.vhv.command !== checkSettings.defaults.vhv.command],
  ] as const;
  for (const [flag, given] of local) {
    if (given) throw new UsageError(`${flag} cannot be combined with --node: the check runs on the node, with the node's own files`);
  }
}

export async function runCheckOnNode(flags: Readonly<Record<string, unknown>>): Promise<number> {
  const check = configOf(checkSettings, flags);
  refuseLocalOnly(check);
  const settings = configOf(checkNodeSettings, flags);
  const node = settings.node as string;
  const kc = await asUsageError(() => loadKubeConfig({ kubeconfig: settings.kubeconfig, context: settings.context }), 'cannot load the kubeconfig');
  const core = kc.makeApiClient(CoreV1Api);
  const server = kc.getCurrentCluster()?.server ?? '(no server)';
  const { namespace } = settings;

  await assertNodeExists(core, node, server);
  const body = checkPod({ node, namespace, image: settings.image, args: podCheckArgs(check), deadlineSeconds: settings.timeoutSeconds + DEADLINE_MARGIN_SECONDS });
  const created = await core.createNamespacedPod({ namespace, body }).catch((error: unknown) => {
    throw apiError(error, `create a pod in namespace ${namespace}`, server);
  });
  const name = created.metadata?.name ?? '';

  const stop = new AbortController();
  let signalled: keyof typeof SIGNAL_EXIT | undefined;
  const onSignal = (signal: keyof typeof SIGNAL_EXIT) => {
    signalled = signal;
    stop.abort();
  };
  const onInt = () => onSignal('SIGINT');
  const onTerm = () => onSignal('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  try {
    const ended = await waitForEnd(core, name, namespace, settings.timeoutSeconds * 1000, stop.signal);
    if (signalled) return SIGNAL_EXIT[signalled];
    if (ended.state === 'timeout') {
      throw new ClusterUnreachableError(`the check pod ${namespace}/${name} on node ${node} did not finish within ${settings.timeoutSeconds} s (${ended.why}); it is deleted`);
    }
    const logs = await core.readNamespacedPodLog({ name, namespace, container: CHECK_POD_CONTAINER }).catch((error: unknown) => {
      throw apiError(error, `read the log of pod ${namespace}/${name}`, server);
    });
    if (ended.exitCode === EXIT.ok || ended.exitCode === EXIT.notReady) {
      process.stdout.write(logs);
      return ended.exitCode;
    }
    const last = logs.trim().split('\n').at(-1) ?? '';
    throw new UsageError(`virtgate check in pod ${namespace}/${name} on node ${node} exited ${ended.exitCode ?? 'without an exit code'}${ended.why ? ` (${ended.why})` : ''}${last ? `: ${last.replace(/^virtgate: /, '')}` : ''}`);
  } finally {
    process.removeListener('SIGINT', onInt);
    process.removeListener('SIGTERM', onTerm);
    await deletePod(core, name, namespace);
  }
}

/** Fails at once, rather than after --timeout, when the node does not exist. Without `get nodes` it goes on. */
async function assertNodeExists(core: CoreV1Api, node: string, server: string): Promise<void> {
  try {
    await core.readNode({ name: node });
  } catch (error) {
    const { status } = apiFailure(error);
    if (status === 404) throw new UsageError(`--node ${node}: no such node (kubectl get nodes lists them)`);
    if (status === 403) return;
    throw apiError(error, `read node ${node}`, server);
  }
}

type Ended = { state: 'done'; exitCode: number | undefined; why: string } | { state: 'timeout'; why: string };

/** Why a pod has not finished: its phase, and a waiting container's reason (ErrImagePull, …). */
function pendingWhy(pod: V1Pod | undefined): string {
  if (!pod) return 'no pod yet';
  const waiting = pod.status?.containerStatuses?.find((status) => status.name === CHECK_POD_CONTAINER)?.state?.waiting;
  const scheduled = pod.status?.conditions?.find((condition) => condition.type === 'PodScheduled');
  const detail = waiting?.reason ? `${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}` : scheduled?.status === 'False' ? (scheduled.message ?? scheduled.reason ?? '') : '';
  return `${pod.status?.phase ?? 'Pending'}${detail ? `, ${detail}` : ''}`;
}

async function waitForEnd(core: CoreV1Api, name: string, namespace: string, timeoutMs: number, stop: AbortSignal): Promise<Ended> {
  const deadline = Date.now() + timeoutMs;
  let pod: V1Pod | undefined;
  while (!stop.aborted) {
    pod = await core.readNamespacedPod({ name, namespace }).catch(() => pod);
    const phase = pod?.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') {
      const terminated = pod?.status?.containerStatuses?.find((status) => status.name === CHECK_POD_CONTAINER)?.state?.terminated;
      return { state: 'done', exitCode: terminated?.exitCode, why: terminated?.reason ?? pod?.status?.reason ?? '' };
    }
    const left = deadline - Date.now();
    if (left <= 0) return { state: 'timeout', why: pendingWhy(pod) };
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(POLL_MS, left));
      stop.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  return { state: 'timeout', why: 'interrupted' };
}

async function deletePod(core: CoreV1Api, name: string, namespace: string): Promise<void> {
  try {
    await core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 });
  } catch (error) {
    if (apiFailure(error).status === 404) return;
    // The one line on stderr is the command's error; this one says what is left behind.
    process.stderr.write(`virtgate: could not delete the check pod ${namespace}/${name}: ${apiFailure(error).message}; delete it with kubectl -n ${namespace} delete pod ${name}\n`);
  }
}

const PERMISSION_HINT = 'virtgate check --node needs create, get, delete on pods and get on pods/log in the --namespace';

function apiError(error: unknown, what: string, server: string): Error {
  const { status, message } = apiFailure(error);
  if (status === 0) return new ClusterUnreachableError(`cannot reach the API server at ${server} to ${what}: ${message}; check --kubeconfig and that the cluster is up`);
  if (status === 401) return new ClusterUnreachableError(`the API server at ${server} rejected the credentials (HTTP 401) when trying to ${what}: ${message}`);
  if (status === 403) return new ClusterUnreachableError(`not allowed to ${what} (HTTP 403): ${message}; ${PERMISSION_HINT}`);
  if (status === 404) return new UsageError(`cannot ${what} (HTTP 404): ${message}; does the --namespace exist?`);
  // A pod the namespace's Pod Security level refuses, or another refusal of the pod itself.
  if (status === 400 || status === 422) return new UsageError(`cannot ${what} (HTTP ${status}): ${message}`);
  return new ClusterUnreachableError(`cannot ${what} at ${server} (HTTP ${status}): ${message}`);
}
