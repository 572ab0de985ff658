import { CoreV1Api, CustomObjectsApi, type KubeConfig, PatchStrategy, type V1Node } from '@kubernetes/client-node';
import { isNotFound } from '../core/kube/api-error.ts';
import { clusterObjectPages, listAll, nodePages, PAGE_SIZE } from '../core/kube/list.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../core/kube/names.ts';
import { requestOptions } from '../core/kube/request-options.ts';
import type { MetadataPatch } from './plan.ts';

/**
 * Every API call `virtgate prune` makes, each with a timeout. With `dryRun` the server runs each
 * write through authorization and admission and then discards it, so a dry run also proves the
 * permissions.
 */
export class PruneApi {
  private readonly core: CoreV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly timeoutMs: number;
  private readonly dryRun: 'All' | undefined;

  constructor(kc: KubeConfig, timeoutMs: number, dryRun: boolean) {
    this.core = kc.makeApiClient(CoreV1Api);
    this.custom = kc.makeApiClient(CustomObjectsApi);
    this.timeoutMs = timeoutMs;
    this.dryRun = dryRun ? 'All' : undefined;
  }

  /** All nodes, a page at a time. */
  async listNodes(): Promise<V1Node[]> {
    const listed = await listAll(nodePages(this.core, () => requestOptions(this.timeoutMs)), PAGE_SIZE, (item) => item as V1Node);
    return listed.items;
  }

  readNode(name: string): Promise<V1Node> {
    return this.core.readNode({ name }, requestOptions(this.timeoutMs));
  }

  patchNode(name: string, body: MetadataPatch): Promise<V1Node> {
    return this.core.patchNode({ name, body, dryRun: this.dryRun }, requestOptions(this.timeoutMs, PatchStrategy.MergePatch));
  }

  patchNodeStatus(name: string, body: object): Promise<V1Node> {
    return this.core.patchNodeStatus({ name, body, dryRun: this.dryRun }, requestOptions(this.timeoutMs, PatchStrategy.StrategicMergePatch));
  }

  /** Names of every NodeValidation; none when the CRD is gone. */
  async listNodeValidationNames(): Promise<string[]> {
    try {
      const reports = clusterObjectPages(this.custom, { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL }, () => requestOptions(this.timeoutMs));
      const listed = await listAll(reports, PAGE_SIZE, (item) => (item as { metadata?: { name?: string } }).metadata?.name);
      return listed.items.filter((name): name is string => Boolean(name));
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  }

  /** Deletes one NodeValidation; false when it was already gone. */
  async deleteNodeValidation(name: string): Promise<boolean> {
    try {
      await this.custom.deleteClusterCustomObject(
        { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, name, ...(this.dryRun ? { dryRun: this.dryRun } : {}) },
        requestOptions(this.timeoutMs),
      );
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }
}
