import {
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  PatchStrategy,
  type V1Node,
  type V1NodeCondition,
  type V1Taint,
} from '@kubernetes/client-node';
import { isNotFound } from '../core/kube/api-error.ts';
import { listAll, PAGE_SIZE } from '../core/kube/list.ts';
import { nodePages } from '../core/kube/pages.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../core/kube/names.ts';
import type { NodeValidation, NodeValidationStatus } from '../core/report/schema.ts';
import { connectionPool } from '../core/kube/connection-pool.ts';
import { requestOptions } from '../core/kube/request-options.ts';
import type { Dispatcher } from 'undici';

export type WriteKind = 'labels' | 'taints' | 'condition' | 'nodevalidation' | 'event';

export interface WriteObserver {
  (kind: WriteKind, ok: boolean): void;
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
    return requestOptions(this.timeoutMs, contentType, await this.pool);
  }

  /** One request, counted once for each kind of thing it changes. */
  private async write<T>(kinds: WriteKind | readonly WriteKind[], call: () => Promise<T>): Promise<T> {
    const each = typeof kinds === 'string' ? [kinds] : kinds;
    try {
      const result = await call();
      for (const kind of each) this.observe(kind, true);
      return result;
    } catch (error) {
      for (const kind of each) this.observe(kind, false);
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
   * One merge patch for labels, the ownership annotation and, when given, the whole taint list;
   * `kinds` says what it changes (it is counted once for each).
   * Taints are a list without a merge key, so a taint change carries the resourceVersion it was
   * computed from: a concurrent writer makes the server answer 409 instead of losing a taint.
   */
  patchNode(
    kinds: ReadonlyArray<'labels' | 'taints'>,
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
    return this.write(kinds, async () =>
      this.remember(await this.core.patchNode({ name: this.nodeName, body }, await this.options(PatchStrategy.MergePatch))),
    );
  }

  /** A strategic merge keyed by `type`: a plain merge patch would replace the kubelet's conditions. */
  patchCondition(condition: V1NodeCondition): Promise<V1Node> {
    return this.write('condition', async () =>
      this.remember(
        await this.core.patchNodeStatus(
          { name: this.nodeName, body: { status: { conditions: [condition] } } },
          await this.options(PatchStrategy.StrategicMergePatch),
        ),
      ),
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
    return this.write('nodevalidation', async () =>
      (await this.custom.createClusterCustomObject(
        { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, body },
        await this.options(),
      )) as NodeValidation,
    );
  }

  /**
   * Through the status subresource (`/status`): only `status` changes, metadata.generation does
   * not. Custom resources take merge patch or JSON Patch, never strategic merge. JSON Patch `add`
   * replaces each given status field whole: a merge patch would keep keys that vanished from
   * nested facts, and the report would never again equal what the agent computes.
   */
  patchNodeValidationStatus(fields: Partial<NodeValidationStatus>, wholeStatus: boolean): Promise<NodeValidation> {
    const operations = wholeStatus
      ? [{ op: 'add', path: '/status', value: fields }]
      : Object.entries(fields).map(([key, value]) => ({ op: 'add', path: `/status/${key}`, value }));
    return this.write('nodevalidation', async () =>
      (await this.custom.patchClusterCustomObjectStatus(
        { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: this.nodeName, body: operations },
        await this.options(PatchStrategy.JsonPatch),
      )) as NodeValidation,
    );
  }

  async createEvent(event: { reason: string; message: string; type: 'Normal' | 'Warning'; nodeUid: string; now: Date }): Promise<void> {
    await this.write('event', async () =>
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
        await this.options(),
      ),
    );
  }
}
