import {
  ApiextensionsV1Api,
  type ConfigurationOptions,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  Observable,
  type ObservableMiddleware,
} from '@kubernetes/client-node';
import { allNamespacesObjectPages, clusterObjectPages, crdPages, nodePages, type PageFetcher } from '../../core/kube/list.ts';
import { requestOptions } from '../../core/kube/request-options.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../../core/kube/names.ts';
import { watchPath } from '../../core/kube/watch.ts';
import type { WatchHandle } from '../../core/kube/watch-loop.ts';

/**
 * The API calls the informers make: a paginated LIST and a WATCH per resource. Read-only by
 * construction: nothing here can create, patch or delete. Every LIST has a client timeout
 * (core/kube/request-options.ts); a WATCH is bounded by the reflector's staleness timer.
 */
export type { WatchHandle } from '../../core/kube/watch-loop.ts';

export interface ResourceClient {
  /** One page of a LIST at the latest resourceVersion (served from the API server's watch cache). */
  list: PageFetcher;
  /**
   * A WATCH from `resourceVersion` with bookmarks. Resolves once the server answered; when the
   * request failed, `onDone` has been called with the error by then.
   */
  watch(resourceVersion: string, timeoutSeconds: number, onEvent: (type: string, object: unknown) => void, onDone: (error: unknown) => void): Promise<WatchHandle>;
}

/** The custom resources the aggregator reads. */
export const KUBEVIRT = { group: 'kubevirt.io', version: 'v1', plural: 'kubevirts', crd: 'kubevirts.kubevirt.io', namespaced: true } as const;
export const CDI = { group: 'cdi.kubevirt.io', version: 'v1beta1', plural: 'cdis', crd: 'cdis.cdi.kubevirt.io', namespaced: false } as const;
/** VirtualMachineInstances, read only to count the running VMs a drain would stop (gate: nodes.migration-pairs). */
export const VMIS = { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances', crd: 'virtualmachineinstances.kubevirt.io', namespaced: true } as const;
export type CustomResource = typeof KUBEVIRT | typeof CDI | typeof VMIS;

export interface ClientOptions {
  requestTimeoutMs: number;
  /** The client-side inactivity limit of a watch stream; a backstop behind the reflector's own. */
  watchInactivityMs: number;
  /** Aborts requests in flight when the aggregator stops, so SIGTERM does not wait for a LIST. */
  signal?: AbortSignal;
}

/** The shared per-request timeout, plus cancellation on stop. */
export function callOptions(options: Pick<ClientOptions, 'requestTimeoutMs' | 'signal'>): ConfigurationOptions<ObservableMiddleware> {
  const base = requestOptions(options.requestTimeoutMs);
  const { signal } = options;
  if (!signal) return base;
  const cancel: ObservableMiddleware = {
    pre: (context) => {
      const timeout = context.getSignal();
      context.setSignal(timeout ? AbortSignal.any([timeout, signal]) : signal);
      return new Observable(Promise.resolve(context));
    },
    post: (response) => new Observable(Promise.resolve(response)),
  };
  return { ...base, middleware: [...(base.middleware ?? []), cancel] };
}

function watcher(kc: KubeConfig, path: string, options: ClientOptions, query: Record<string, string> = {}): ResourceClient['watch'] {
  return watchPath(kc, path, { inactivityMs: options.watchInactivityMs, query });
}

export function nodesClient(kc: KubeConfig, options: ClientOptions): ResourceClient {
  const core = kc.makeApiClient(CoreV1Api);
  return {
    list: nodePages(core, () => callOptions(options)),
    watch: watcher(kc, '/api/v1/nodes', options),
  };
}

export function nodeValidationsClient(kc: KubeConfig, options: ClientOptions): ResourceClient {
  const custom = kc.makeApiClient(CustomObjectsApi);
  return {
    list: clusterObjectPages(custom, { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL }, () => callOptions(options)),
    watch: watcher(kc, `/apis/${API_GROUP}/${API_VERSION}/${NODE_VALIDATION_PLURAL}`, options),
  };
}

/** One CRD by name (a field selector): cheap, and needs no permission on other CRDs' contents. */
export function crdClient(kc: KubeConfig, crdName: string, options: ClientOptions): ResourceClient {
  const api = kc.makeApiClient(ApiextensionsV1Api);
  const fieldSelector = `metadata.name=${crdName}`;
  return {
    list: crdPages(api, () => callOptions(options), { fieldSelector }),
    watch: watcher(kc, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', options, { fieldSelector }),
  };
}

/** KubeVirt objects across all namespaces, or the cluster-scoped CDI objects. */
export function customResourceClient(kc: KubeConfig, resource: CustomResource, options: ClientOptions): ResourceClient {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const pages = resource.namespaced ? allNamespacesObjectPages : clusterObjectPages;
  return {
    list: pages(custom, resource, () => callOptions(options)),
    watch: watcher(kc, `/apis/${resource.group}/${resource.version}/${resource.plural}`, options),
  };
}

/**
 * One client per resource the aggregator watches. The aggregator makes them from its kubeconfig;
 * the 100,000-node bench hands in synthetic ones, so that decoded objects reach the same reflectors.
 */
export interface WatchClients {
  nodes: ResourceClient;
  nodeValidations: ResourceClient;
  crd(name: string): ResourceClient;
  customResource(resource: CustomResource): ResourceClient;
}

export function apiClients(kc: KubeConfig, options: ClientOptions): WatchClients {
  return {
    nodes: nodesClient(kc, options),
    nodeValidations: nodeValidationsClient(kc, options),
    crd: (name) => crdClient(kc, name, options),
    customResource: (resource) => customResourceClient(kc, resource, options),
  };
}
