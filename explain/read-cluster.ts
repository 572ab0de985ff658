import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { narrowKubeVirt, pickActive } from '../aggregator/model/kubevirt.ts';
import { assessNode } from '../aggregator/readiness/assess-node.ts';
import { callOptions, customResourceClient, KUBEVIRT, nodesClient, nodeValidationsClient } from '../aggregator/watch/resources.ts';
import { apiFailure, isTransient } from '../core/kube/api-error.ts';
import { DEFAULT_BACKOFF } from '../core/kube/backoff.ts';
import { listAll, listPage, PAGE_SIZE, type PageFetcher } from '../core/kube/list.ts';
import { retryApiCall, retryPolicy } from '../core/kube/retry.ts';
import { readReport, type ReportParse } from '../core/report/read.ts';
import { type KubeVirtPlacementConfig, kubeVirtPlacementConfig, KUBEVIRT_DEFAULTS } from './kubevirt-config.ts';
import type { WorkloadPlacement } from '../aggregator/model/placement.ts';
import { type NodeView, podRequests, readNodeResources, readPodRequests, requestsByNode } from './node-view.ts';

/**
 * Everything `virtgate explain` reads from a cluster, once, no watch: the VMI (or VM), the nodes,
 * virtgate's reports (with their checks' hints), the KubeVirt CR and what the pods on each node
 * request. Reports, the KubeVirt CR and pods are optional: what cannot be read is said in `notes`.
 */
export interface ClusterReading {
  nodes: NodeView[];
  config: KubeVirtPlacementConfig;
  workloadsPlacement: WorkloadPlacement | null;
  notes: string[];
}

/** A request failed: `status` is its HTTP status (0: no answer), `message` one line saying what to do. */
export class ExplainReadError extends Error {
  override name = 'ExplainReadError';
  readonly status: number;
  /** The API server's own message, without what virtgate was doing. */
  readonly reason: string;
  constructor(message: string, status: number, reason = message) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

export interface ReadOptions {
  requestTimeoutMs: number;
  /** The uid of the VMI explained: its own virt-launcher pods do not count against the nodes. */
  vmiUid?: string | null;
  prefix: string;
  staleAfterSeconds: number;
  now: Date;
}

const VMS = { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachines' } as const;
const VMI = { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances' } as const;

/** The object to explain; null when the server has none of that name (404). */
export async function readVmObject(kc: KubeConfig, kind: 'vmi' | 'vm', namespace: string, name: string, options: Pick<ReadOptions, 'requestTimeoutMs'>): Promise<unknown> {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const resource = kind === 'vmi' ? VMI : VMS;
  const what = `get ${resource.plural}.${resource.group} ${namespace}/${name}`;
  try {
    return await attempt(kc, what, () => custom.getNamespacedCustomObject({ ...resource, namespace, name }, callOptions(options)));
  } catch (error) {
    if (error instanceof ExplainReadError && error.status === 404) return null;
    throw error;
  }
}

export type DryRun =
  | { state: 'accepted'; object: unknown }
  /** The API server refused the object: KubeVirt's schema (strict fields) or its admission webhooks. */
  | { state: 'refused'; message: string }
  /** Not allowed to create (even in a dry run), or the kind is not served: judged from the file alone. */
  | { state: 'skipped'; why: string };

/**
 * A VM from a file, sent to the API server as a dry run (nothing is stored): KubeVirt's CRD schema
 * checks it with strict field validation, and virt-api's admission webhooks check it and fill in
 * KubeVirt's defaults, as they would when it is created. The name is left to the server
 * (generateName), so that a file of an existing VM is not refused as a duplicate.
 */
export async function dryRunCreate(kc: KubeConfig, raw: Record<string, unknown>, namespace: string, options: Pick<ReadOptions, 'requestTimeoutMs'>): Promise<DryRun> {
  const resource = raw.kind === 'VirtualMachine' ? VMS : VMI;
  const metadata = (typeof raw.metadata === 'object' && raw.metadata !== null ? raw.metadata : {}) as Record<string, unknown>;
  const { name, resourceVersion: _resourceVersion, uid: _uid, ...rest } = metadata;
  const body = { ...raw, metadata: { ...rest, namespace, generateName: `${typeof name === 'string' ? name.slice(0, 40) : 'vm'}-` } };
  const custom = kc.makeApiClient(CustomObjectsApi);
  try {
    const object = await attempt(kc, `create ${resource.plural}.${resource.group} (dry run)`, () =>
      custom.createNamespacedCustomObject({ ...resource, namespace, body, dryRun: 'All', fieldValidation: 'Strict' }, callOptions(options)),
    );
    return { state: 'accepted', object: { ...(object as Record<string, unknown>), metadata: { ...((object as { metadata?: object }).metadata ?? {}), name } } };
  } catch (error) {
    if (!(error instanceof ExplainReadError)) throw error;
    if (error.status === 403) return { state: 'skipped', why: `not allowed to create ${resource.plural}.${resource.group} in ${namespace}, even as a dry run` };
    if (error.status === 404) return { state: 'skipped', why: `${resource.plural}.${resource.group} is not served (KubeVirt not installed?)` };
    if (error.status === 400 || error.status === 422) return { state: 'refused', message: error.reason };
    throw error;
  }
}

/**
 * What the VMI's virt-launcher pod requests (the newest one that has not ended; a migrating VMI
 * has two, the same size); null without one, or when pods may not be listed.
 */
export async function readLauncherRequests(kc: KubeConfig, namespace: string, vmiUid: string, options: Pick<ReadOptions, 'requestTimeoutMs'>): Promise<Record<string, number> | null> {
  const core = kc.makeApiClient(CoreV1Api);
  try {
    const pods = await attempt(kc, `list pods in ${namespace}`, () => core.listNamespacedPod({ namespace, labelSelector: `kubevirt.io/created-by=${vmiUid}` }, callOptions(options)));
    const live = pods.items.filter((pod) => !pod.metadata?.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed');
    const newest = live.sort((a, b) => String(b.metadata?.creationTimestamp ?? '').localeCompare(String(a.metadata?.creationTimestamp ?? '')))[0];
    return newest === undefined ? null : podRequests(newest);
  } catch (error) {
    if (error instanceof ExplainReadError && error.status === 403) return null;
    throw error;
  }
}

export async function readCluster(kc: KubeConfig, options: ReadOptions): Promise<ClusterReading> {
  const clientOptions = { requestTimeoutMs: options.requestTimeoutMs, watchInactivityMs: options.requestTimeoutMs };
  const notes: string[] = [];
  const optional = async <T>(what: string, read: () => Promise<T>, fallback: T, without: string): Promise<T> => {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof ExplainReadError) || (error.status !== 403 && error.status !== 404)) throw error;
      notes.push(error.status === 404 ? `${what}: not served (${without})` : `${what}: not allowed (${without})`);
      return fallback;
    }
  };
  const [nodes, reports, kubevirts, pods] = await Promise.all([
    attempt(kc, 'list nodes', () => listAll(nodesClient(kc, clientOptions).list, PAGE_SIZE, readNodeResources)),
    optional('nodevalidations.virtgate.io', () => attempt(kc, 'list nodevalidations.virtgate.io', () => listAll(nodeValidationsClient(kc, clientOptions).list, PAGE_SIZE, (raw) => readReport(raw, { hints: true }))), { items: [], resourceVersion: '' }, "virtgate's evidence is missing for every node"),
    optional('kubevirts.kubevirt.io', () => attempt(kc, 'list kubevirts.kubevirt.io', () => listAll(customResourceClient(kc, KUBEVIRT, clientOptions).list, PAGE_SIZE, (raw) => raw)), { items: [], resourceVersion: '' }, "KubeVirt's defaults assumed"),
    optional('pods', () => attempt(kc, 'list pods', () => listAll(podPages(kc, options), PAGE_SIZE, readPodRequests)), null, 'free capacity judged against allocatable only'),
  ]);
  // The KubeVirt CR KubeVirt acts on, as the gate picks it; its raw object for the settings the gate does not read.
  const narrowed = kubevirts.items.slice(0, 100).map(narrowKubeVirt);
  const active = pickActive(narrowed);
  const config = active === null ? KUBEVIRT_DEFAULTS : kubeVirtPlacementConfig(kubevirts.items[narrowed.indexOf(active)]);
  const requested = pods === null ? null : requestsByNode(pods.items, options.vmiUid ?? null);
  const byName = reportsByName(reports.items);
  const nowMs = options.now.getTime();
  const views = nodes.items.flatMap((entry): NodeView[] => {
    if (entry === null) return [];
    const assessed = assessNode(entry.node, byName.get(entry.node.name) ?? [], { staleAfterSeconds: options.staleAfterSeconds, prefix: options.prefix, nowMs });
    return [{ ...entry, requested: requested === null ? null : (requested.get(entry.node.name) ?? {}), assessed }];
  });
  return { nodes: views, config, workloadsPlacement: active?.workloadsPlacementSet ? active.workloadsPlacement : null, notes };
}

function reportsByName(parses: readonly ReportParse[]): Map<string, ReportParse[]> {
  const byName = new Map<string, ReportParse[]>();
  for (const parse of parses) {
    const name = parse.state === 'valid' ? parse.report.name : parse.name;
    if (name === null) continue;
    byName.set(name, [...(byName.get(name) ?? []), parse]);
  }
  return byName;
}

/** Pods that hold resources: the scheduler counts every pod bound to a node that has not ended. */
function podPages(kc: KubeConfig, options: Pick<ReadOptions, 'requestTimeoutMs'>): PageFetcher {
  const core = kc.makeApiClient(CoreV1Api);
  return async ({ limit, continueToken }) =>
    listPage(await core.listPodForAllNamespaces({ limit, _continue: continueToken, fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' }, callOptions(options)));
}

async function attempt<T>(kc: KubeConfig, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await retryApiCall(call, retryPolicy(DEFAULT_BACKOFF, 2, isTransient));
  } catch (error) {
    if (error instanceof ExplainReadError) throw error;
    const failure = apiFailure(error);
    const server = kc.getCurrentCluster()?.server ?? '(no server)';
    if (failure.status === 0) throw new ExplainReadError(`cannot reach the API server at ${server} to ${what}: ${failure.message}; check --kubeconfig and that the cluster is up`, 0);
    if (failure.status === 401) throw new ExplainReadError(`the API server at ${server} rejected the credentials (HTTP 401) when trying to ${what}: ${failure.message}; refresh the kubeconfig's token or certificate`, 401);
    throw new ExplainReadError(`cannot ${what} (HTTP ${failure.status}): ${failure.message}`, failure.status, failure.message);
  }
}
