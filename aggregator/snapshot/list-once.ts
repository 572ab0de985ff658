import { ApiextensionsV1Api, type KubeConfig, VersionApi } from '@kubernetes/client-node';
import { apiFailure, isTransient } from '../../core/kube/api-error.ts';
import { listAll, PAGE_SIZE } from '../../core/kube/list.ts';
import { DEFAULT_BACKOFF } from '../../core/kube/backoff.ts';
import { retryApiCall, retryPolicy } from '../../core/kube/retry.ts';
import { parseNode } from '../model/node.ts';
import { readReport } from '../../core/report/read.ts';
import type { CustomResourceObservation, ParsedSnapshot } from '../model/snapshot.ts';
import { projectVmi } from '../model/vmi.ts';
import { crdObservation, projectCrd } from '../watch/project.ts';
import { callOptions, CDI, type ClientOptions, type CustomResource, customResourceClient, KUBEVIRT, nodesClient, nodeValidationsClient, VMIS } from '../watch/resources.ts';

/** The cluster could not be read: `message` is one line saying what failed and what to do. */
export class ClusterReadError extends Error {
  override name = 'ClusterReadError';
  /** The HTTP status of the failed request; 0 when no answer came. */
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export interface ListOnceOptions {
  requestTimeoutMs: number;
  pageSize?: number;
  /** Retries of a request that failed for a passing reason (no answer, 429, 5xx). */
  retries?: number;
}

/**
 * One consistent-enough read of everything the gate needs, for `virtgate gate`: GET /version and
 * one LIST per resource, no watch. KubeVirt and CDI are listed directly: a 404 means they are not
 * served, and their CRD then says whether it is absent or not serving yet. A missing NodeValidation CRD reads as "no reports" (the gate then says no
 * node has a report). Nodes and NodeValidations are narrowed page by page as they arrive, as the
 * aggregator's informers do, so whole objects never pile up.
 */
export async function listClusterOnce(kc: KubeConfig, options: ListOnceOptions): Promise<ParsedSnapshot> {
  const server = kc.getCurrentCluster()?.server ?? '(no server)';
  const clientOptions: ClientOptions = { requestTimeoutMs: options.requestTimeoutMs, watchInactivityMs: options.requestTimeoutMs };
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const attempt = <T>(what: string, call: () => Promise<T>) => withRetries(what, server, call, options.retries ?? 2);

  const version = await attempt('read the API server version', () => kc.makeApiClient(VersionApi).getCode(callOptions(clientOptions)));
  const [nodes, reports, kubevirt, cdi, vmis] = await Promise.all([
    attempt('list nodes', () => listAll(nodesClient(kc, clientOptions).list, pageSize, parseNode)),
    attempt('list nodevalidations.virtgate.io', () => listAll(nodeValidationsClient(kc, clientOptions).list, pageSize, readReport)).catch((error: unknown) => {
      if (error instanceof NotServed) return { items: [] };
      throw error;
    }),
    observe(kc, KUBEVIRT, clientOptions, pageSize, attempt),
    observe(kc, CDI, clientOptions, pageSize, attempt),
    // Only counts VMs for nodes.migration-pairs: a user who may not list VMIs still gets a gate.
    observe(kc, VMIS, clientOptions, pageSize, attempt, projectVmi).catch(
      (error: unknown): CustomResourceObservation => ({ state: 'unknown', reason: error instanceof Error ? error.message : String(error) }),
    ),
  ]);
  return { serverGitVersion: version.gitVersion, nodes: nodes.items, reports: reports.items, kubevirt, cdi, vmis };
}

async function observe(
  kc: KubeConfig,
  resource: CustomResource,
  clientOptions: ClientOptions,
  pageSize: number,
  attempt: <T>(what: string, call: () => Promise<T>) => Promise<T>,
  project: (raw: unknown) => unknown = (raw) => raw,
): Promise<CustomResourceObservation> {
  try {
    const { items } = await attempt(`list ${resource.plural}.${resource.group}`, () => listAll(customResourceClient(kc, resource, clientOptions).list, pageSize, project));
    return { state: 'listed', items };
  } catch (error) {
    if (error instanceof NotServed) return notServed(kc, resource, clientOptions, attempt);
    throw error;
  }
}

/**
 * The LIST answered 404: the resource is not served. Its CRD says why, as the aggregator's watch
 * would: not installed, or installed but not (yet) serving the version virtgate reads. A user who
 * may not read CRDs gets "not installed", which is what the 404 says.
 */
async function notServed(
  kc: KubeConfig,
  resource: CustomResource,
  clientOptions: ClientOptions,
  attempt: <T>(what: string, call: () => Promise<T>) => Promise<T>,
): Promise<CustomResourceObservation> {
  const api = kc.makeApiClient(ApiextensionsV1Api);
  try {
    const crd = await attempt(`read CRD ${resource.crd}`, () => api.readCustomResourceDefinition({ name: resource.crd }, callOptions(clientOptions)));
    const info = projectCrd(crd);
    return crdObservation(resource.crd, resource.group, resource.version, info) ?? { state: 'unknown', reason: `listing ${resource.plural}.${resource.group} answered 404 although its CRD is established and serves ${resource.version}` };
  } catch (error) {
    if (error instanceof NotServed || (error instanceof ClusterReadError && error.status === 403)) return { state: 'crd-absent' };
    throw error;
  }
}

/** A 404 on a LIST: the resource is not served (its CRD is not installed). */
class NotServed extends Error {}

async function withRetries<T>(what: string, server: string, call: () => Promise<T>, retries: number): Promise<T> {
  try {
    return await retryApiCall(call, retryPolicy(DEFAULT_BACKOFF, retries, isTransient));
  } catch (error) {
    const failure = apiFailure(error);
    if (failure.status === 404) throw new NotServed(what);
    throw new ClusterReadError(explain(what, server, failure.status, failure.message), failure.status);
  }
}

function explain(what: string, server: string, status: number, message: string): string {
  if (status === 0) return `cannot reach the API server at ${server} to ${what}: ${message}; check --kubeconfig and that the cluster is up`;
  if (status === 401) return `the API server at ${server} rejected the credentials (HTTP 401) when trying to ${what}: ${message}; refresh the kubeconfig's token or certificate`;
  if (status === 403) {
    return `not allowed to ${what} (HTTP 403): ${message}; virtgate gate needs get/list on nodes, nodevalidations.virtgate.io, kubevirts.kubevirt.io and cdis.cdi.kubevirt.io`;
  }
  return `cannot ${what} at ${server} (HTTP ${status}): ${message}`;
}
