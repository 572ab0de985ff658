import { CoreV1Api, CustomObjectsApi, type KubeConfig, PatchStrategy, type V1Pod, Watch } from '@kubernetes/client-node';
import { isNotFound, isThrottled, isTransient } from '../core/kube/api-error.ts';
import { DEFAULT_BACKOFF } from '../core/kube/backoff.ts';
import { clusterObjectPages, listAll, listPage, nodePages, PAGE_SIZE } from '../core/kube/list.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../core/kube/names.ts';
import { requestOptions } from '../core/kube/request-options.ts';
import { retryApiCall, retryPolicy } from '../core/kube/retry.ts';
import type { VmBoot } from '../core/report/schema.ts';
import type { NodeView } from './pick.ts';
import { VMI_API } from './vmi.ts';

/** KubeVirt's VMI API is not served: KubeVirt is not installed (or not yet). */
export class KubeVirtMissingError extends Error {}

/** The objects of one LIST and where a WATCH goes on from. */
export interface Listed<T> {
  items: T[];
  resourceVersion: string;
}

/** Retries of one call, as `virtgate gate` reads (0.5–1 s, then 1–2 s, or the server's Retry-After up to 30 s). */
const RETRIES = 2;
/** Reads go again on a failure that may pass (no answer, 429, 5xx). */
const READ_RETRY = retryPolicy(DEFAULT_BACKOFF, RETRIES, isTransient);
/** Writes go again only on 429, which says the server did not act: a 5xx may have created the VMI. */
const WRITE_RETRY = retryPolicy(DEFAULT_BACKOFF, RETRIES, isThrottled);

/**
 * Every API call `virtgate canary` makes, each with a timeout. A fresh KubeVirt install answers
 * 429 "storage is (re)initializing" for a moment while the API server fills the new CRD's watch
 * cache; client-go's tools wait that out, and so does the canary.
 */
export class CanaryApi {
  private readonly core: CoreV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly watcher: Watch;
  private readonly timeoutMs: number;
  readonly namespace: string;

  constructor(kc: KubeConfig, timeoutMs: number, namespace: string) {
    this.timeoutMs = timeoutMs;
    this.namespace = namespace;
    this.core = kc.makeApiClient(CoreV1Api);
    this.custom = kc.makeApiClient(CustomObjectsApi);
    this.watcher = new Watch(kc);
  }

  private options() {
    return requestOptions(this.timeoutMs);
  }

  private read<T>(call: () => Promise<T>): Promise<T> {
    return retryApiCall(call, READ_RETRY);
  }

  private write<T>(call: () => Promise<T>): Promise<T> {
    return retryApiCall(call, WRITE_RETRY);
  }

  async listNodes(): Promise<NodeView[]> {
    const listed = await this.read(() => listAll(nodePages(this.core, () => this.options()), PAGE_SIZE, (item) => {
      const node = item as { metadata?: { name?: string; labels?: Record<string, string> }; spec?: { unschedulable?: boolean } };
      const name = node.metadata?.name ?? '';
      return { name, hostname: node.metadata?.labels?.['kubernetes.io/hostname'] ?? name, unschedulable: node.spec?.unschedulable === true };
    }));
    return listed.items.filter((node) => node.name !== '');
  }

  /** Every NodeValidation as the API returns it; none when the CRD is not installed. */
  async listReports(): Promise<unknown[]> {
    try {
      const pages = clusterObjectPages(this.custom, { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL }, () => this.options());
      return (await this.read(() => listAll(pages, PAGE_SIZE, (item) => item))).items;
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  }

  /** The canary's VMIs by label; KubeVirtMissingError when the VMI API is not served. */
  async listVmis(labelSelector: string): Promise<Listed<Record<string, unknown>>> {
    try {
      const page = listPage(await this.read(() => this.custom.listNamespacedCustomObject({ ...VMI_API, namespace: this.namespace, labelSelector }, this.options())));
      return { items: page.items as Record<string, unknown>[], resourceVersion: page.resourceVersion };
    } catch (error) {
      // LIST in a namespace that does not exist answers an empty list: 404 means the resource itself is not served.
      if (isNotFound(error)) {
        throw new KubeVirtMissingError('KubeVirt is not installed (no virtualmachineinstances.kubevirt.io)');
      }
      throw error;
    }
  }

  async createVmi(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return (await this.write(() => this.custom.createNamespacedCustomObject({ ...VMI_API, namespace: this.namespace, body }, this.options()))) as Record<string, unknown>;
  }

  /** Deletes one VMI; false when it was already gone. */
  async deleteVmi(name: string): Promise<boolean> {
    try {
      await this.write(() => this.custom.deleteNamespacedCustomObject({ ...VMI_API, namespace: this.namespace, name, gracePeriodSeconds: 0 }, this.options()));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async listPods(labelSelector: string): Promise<Listed<V1Pod>> {
    const page = listPage(await this.read(() => this.core.listNamespacedPod({ namespace: this.namespace, labelSelector }, this.options())));
    return { items: page.items as V1Pod[], resourceVersion: page.resourceVersion };
  }

  /** The guest's serial console so far: virt-launcher's guest-console-log container tails it. */
  async readConsole(pod: string): Promise<string> {
    return String(await this.core.readNamespacedPodLog({ namespace: this.namespace, name: pod, container: 'guest-console-log', limitBytes: 256 * 1024 }, this.options()));
  }

  /** The canary's only write on a report. */
  async publishVmBoot(node: string, patch: readonly { op: 'add'; path: '/status/vmBoot'; value: VmBoot }[]): Promise<void> {
    await this.write(() =>
      this.custom.patchClusterCustomObjectStatus(
        { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name: node, body: patch },
        requestOptions(this.timeoutMs, PatchStrategy.JsonPatch),
      ),
    );
  }

  /** A WATCH in the canary's namespace from `resourceVersion`; `onDone` when it ends for any reason. */
  watch(
    kind: 'vmis' | 'pods',
    labelSelector: string,
    resourceVersion: string,
    onEvent: (type: string, object: unknown) => void,
    onDone: (error: unknown) => void,
  ): Promise<AbortController> {
    const path =
      kind === 'vmis' ? `/apis/${VMI_API.group}/${VMI_API.version}/namespaces/${this.namespace}/${VMI_API.plural}` : `/api/v1/namespaces/${this.namespace}/pods`;
    return this.watcher.watch(path, { labelSelector, resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 300 }, onEvent, onDone);
  }
}
