import { CoreV1Api, CustomObjectsApi, type KubeConfig, PatchStrategy, type V1Node } from '@kubernetes/client-node';
import { isNotFound } from '../core/kube/api-error.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_PLURAL } from '../core/kube/names.ts';
import { requestOptions } from '../core/kube/request-options.ts';
import type { MetadataPatch } from './plan.ts';

const PAGE_SIZE = 500;

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

  /** All nodes, a page at a time (a LIST of thousands of nodes in one response is what hurts API servers). */
  async listNodes(): Promise<V1Node[]> {
    const nodes: V1Node[] = [];
    let _continue: string | undefined;
    do {
      const page = await this.core.listNode({ limit: PAGE_SIZE, ...(_continue ? { _continue } : {}) }, requestOptions(this.timeoutMs));
      nodes.push(...page.items);
      _continue = page.metadata?._continue || undefined;
    } while (_continue);
    return nodes;
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
    const names: string[] = [];
    let _continue: string | undefined;
    try {
      do {
        const page = (await this.custom.listClusterCustomObject(
          { group: API_GROUP, version: API_VERSION, plural: NODE_VALIDATION_PLURAL, limit: PAGE_SIZE, ...(_continue ? { _continue } : {}) },
          requestOptions(this.timeoutMs),
        )) as { items?: Array<{ metadata?: { name?: string } }>; metadata?: { continue?: string } };
        for (const item of page.items ?? []) if (item.metadata?.name) names.push(item.metadata.name);
        _continue = page.metadata?.continue || undefined;
      } while (_continue);
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
    return names;
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
