import { CoreV1Api, CustomObjectsApi, type KubeConfig, PatchStrategy, type V1Node, type V1NodeCondition, type V1Taint } from '@kubernetes/client-node';
import { apiFailure, isNotFound } from '../core/kube/api-error.ts';
import { listAll, nodePages, PAGE_SIZE } from '../core/kube/list.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../core/kube/names.ts';
import type { NodeValidation } from '../core/report/schema.ts';
import type { StatusOperation } from './desired/status-patch.ts';
import { connectionPool } from '../core/kube/connection-pool.ts';
import { requestOptions, type RequestOptions, withCancel, withRequestHook } from '../core/kube/request-options.ts';
import type { Dispatcher } from 'undici';

/**
 * One finished write request: the resource it went to as the API server names it (`nodes`,
 * `nodes/status`, `nodevalidations`, `nodevalidations/status`, `events`), and the HTTP status
 * the server answered as a string (`200`, `201`, `403`, `409`, ...), or `<error>` when no answer
 * came (refused, reset, timed out), as client-go's `rest_client_requests_total` says it.
 */
export interface WriteObserver {
  (resource: string, code: string): void;
}

export const NO_RESPONSE_CODE = '<error>';

/**
 * The resource of a request path, without names: `/api/v1/nodes/n1/status` is `nodes/status`,
 * `/api/v1/namespaces/default/events` is `events`, `/apis/virtgate.io/v1alpha1/nodevalidations/n1`
 * is `nodevalidations`.
 */
export function resourceOfPath(pathname: string): string {
  const parts = pathname.split('/').filter(Boolean);
  let rest = parts[0] === 'api' ? parts.slice(2) : parts[0] === 'apis' ? parts.slice(3) : parts;
  if (rest[0] === 'namespaces' && rest.length > 2) rest = rest.slice(2);
  const [resource, , subresource] = rest;
  if (!resource) return 'unknown';
  return subresource ? `${resource}/${subresource}` : resource;
}

/**
 * Every API call the agent makes, each with a timeout, each write counted. Request bodies are
 * built by the pure functions in `desired/`; this file only sends them.
 */
export class NodeApi {
  private readonly core: CoreV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly nodeName: string;
  private readonly timeoutMs: number;
  private readonly observe: WriteObserver;
  private readonly pool: Promise<Dispatcher | undefined>;
  private selectorMatch: { selector: string; labels: string; matches: boolean } | undefined;
  /** Aborted when the agent stops and its grace is over: no request runs on after that. */
  private readonly stopped = new AbortController();
  /** resourceVersions of the Node this agent last read or wrote (a few), in arrival order. */
  private readonly ownVersions: string[] = [];

  constructor(kc: KubeConfig, nodeName: string, timeoutMs: number, observe: WriteObserver) {
    // Without a pool, client-node falls back to one connection per request: slower, not wrong.
    this.pool = connectionPool(kc).catch(() => undefined);
    this.core = kc.makeApiClient(CoreV1Api);
    this.custom = kc.makeApiClient(CustomObjectsApi);
    this.nodeName = nodeName;
    this.timeoutMs = timeoutMs;
    this.observe = observe;
  }

  private async options(contentType?: PatchStrategy) {
    return withCancel(requestOptions(this.timeoutMs, contentType, await this.pool), this.stopped.signal);
  }

  /** Aborts every request in flight, and fails every later one at once. */
  cancelAll(reason: string): void {
    this.stopped.abort(new Error(reason));
  }

  /**
   * Every write the agent makes goes through here, and is counted here once: the resource is read
   * from the request the client really sends, the code from the answer it really gets (a 403 from
   * RBAC or the admission policy stays a 403). `call` must send one request, with `options`.
   */
  private async write<T>(call: (options: RequestOptions) => Promise<T>, contentType?: PatchStrategy): Promise<T> {
    const seen: { resource: string; code?: number } = { resource: 'unknown' };
    const options = withRequestHook(await this.options(contentType), {
      pre: (context) => {
        seen.resource = resourceOfPath(new URL(context.getUrl()).pathname);
      },
      post: (response) => {
        seen.code = response.httpStatusCode;
      },
    });
    try {
      const result = await call(options);
      this.observe(seen.resource, String(seen.code ?? 200));
      return result;
    } catch (error) {
      const status = seen.code ?? apiFailure(error).status;
      this.observe(seen.resource, status > 0 ? String(status) : NO_RESPONSE_CODE);
      throw error;
    }
  }

  async readNode(): Promise<V1Node> {
    return this.remember(await this.core.readNode({ name: this.nodeName }, await this.options()));
  }

  /** Whether a watched Node is a version this agent read or wrote itself, not someone else's change. */
  knows(node: V1Node): boolean {
    const version = node.metadata?.resourceVersion;
    return version !== undefined && this.ownVersions.includes(version);
  }

  private remember(node: V1Node): V1Node {
    const version = node.metadata?.resourceVersion;
    if (version !== undefined) {
      this.ownVersions.push(version);
      if (this.ownVersions.length > 16) this.ownVersions.shift();
    }
    return node;
  }

  /**
   * One merge patch for labels, the ownership annotation and, when given, the whole taint list
   * (counted once, as a write to `nodes`).
   * Taints are a list without a merge key, so a taint change carries the resourceVersion it was
   * computed from: a concurrent writer makes the server answer 409 instead of losing a taint.
   */
  patchNode(
    change: { labels?: Record<string, string | null>; annotations?: Record<string, string | null>; taints?: V1Taint[]; resourceVersion?: string },
  ): Promise<V1Node> {
    const body = {
      metadata: {
        ...(change.resourceVersion ? { resourceVersion: change.resourceVersion } : {}),
        ...(change.labels ? { labels: change.labels } : {}),
        ...(change.annotations ? { annotations: change.annotations } : {}),
      },
      ...(change.taints ? { spec: { taints: change.taints } } : {}),
    };
    return this.write(async (options) => this.remember(await this.core.patchNode({ name: this.nodeName, body }, options)), PatchStrategy.MergePatch);
  }

  /** A strategic merge keyed by `type`: a plain merge patch would replace the kubelet's conditions. */
  patchCondition(condition: V1NodeCondition): Promise<V1Node> {
    return this.write(
      async (options) => this.remember(await this.core.patchNodeStatus({ name: this.nodeName, body: { status: { conditions: [condition] } } }, options)),
      PatchStrategy.StrategicMergePatch,
    );
  }

  /** The taint pool, a page at a time. */
  async listNodes(labelSelector: string): Promise<V1Node[]> {
    const listed = await listAll(nodePages(this.core, () => this.options(), { labelSelector }), PAGE_SIZE, (item) => item as V1Node);
    return listed.items;
  }

  /**
   * Whether this node matches `labelSelector`. The API server answers (it owns selector syntax),
   * and is asked again only when the node's labels change: a failing node outside the taint pool
   * would otherwise LIST the pool on every probe cycle. Labels under `ownPrefix` count only when
   * the selector names that prefix (a selector can only test keys it names): virtgate writing its
   * own labels does not make the node ask again.
   */
  async nodeMatches(labelSelector: string, node: V1Node, ownPrefix: string): Promise<boolean> {
    if (!labelSelector) return true;
    const ownKeysMatter = labelSelector.includes(`${ownPrefix}/`);
    const relevant = Object.entries(node.metadata?.labels ?? {}).filter(([key]) => ownKeysMatter || !key.startsWith(`${ownPrefix}/`));
    const labels = JSON.stringify(relevant.sort(([a], [b]) => a.localeCompare(b)));
    const known = this.selectorMatch;
    if (known && known.selector === labelSelector && known.labels === labels) return known.matches;
    const list = await this.core.listNode({ labelSelector, fieldSelector: `metadata.name=${this.nodeName}` }, await this.options());
    const matches = list.items.length > 0;
    this.selectorMatch = { selector: labelSelector, labels, matches };
    return matches;
  }

  async readNodeValidation(): Promise<NodeValidation | undefined> {
    try {
      return (await this.custom.getClusterCustomObject(
        { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: this.nodeName },
        await this.options(),
      )) as NodeValidation;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Metadata and spec: with the status subresource, the API server drops `status` from a create. */
  createNodeValidation(object: NodeValidation): Promise<NodeValidation> {
    const { status: _dropped, ...body } = object;
    return this.write(
      async (options) =>
        (await this.custom.createClusterCustomObject({ group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, body }, options)) as NodeValidation,
    );
  }

  /**
   * Through the status subresource (`/status`): only `status` changes, metadata.generation does
   * not. Custom resources take merge patch or JSON Patch, never strategic merge; the operations
   * (one per status key of the agent's, never `status` whole once it exists, so the canary's
   * `status.vmBoot` survives) are built by desired/status-patch.ts.
   */
  patchNodeValidationStatus(operations: readonly StatusOperation[]): Promise<NodeValidation> {
    return this.write(
      async (options) =>
        (await this.custom.patchClusterCustomObjectStatus(
          { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: this.nodeName, body: operations },
          options,
        )) as NodeValidation,
      PatchStrategy.JsonPatch,
    );
  }

  async createEvent(event: { reason: string; message: string; type: 'Normal' | 'Warning'; nodeUid: string; now: Date }): Promise<void> {
    await this.write(async (options) =>
      this.core.createNamespacedEvent(
        {
          namespace: 'default',
          body: {
            metadata: { generateName: `${this.nodeName}.virtgate-` },
            involvedObject: { apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid: event.nodeUid },
            reason: event.reason,
            message: event.message,
            type: event.type,
            source: { component: 'virtgate-agent', host: this.nodeName },
            reportingComponent: 'virtgate.io/agent',
            reportingInstance: this.nodeName,
            firstTimestamp: event.now,
            lastTimestamp: event.now,
            count: 1,
          },
        },
        options,
      ),
    );
  }
}
