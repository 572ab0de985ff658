import type { ConfigurationOptions, CoreV1Api, CustomObjectsApi, ObservableMiddleware } from '@kubernetes/client-node';
import { listPage, type PageFetcher } from './list.ts';

/** Per-request options, made afresh for each page (each carries its own timeout). */
export type RequestOptionsFactory = () => ConfigurationOptions<ObservableMiddleware> | Promise<ConfigurationOptions<ObservableMiddleware>>;

/** Pages of a Node LIST, optionally narrowed by label and field selectors. */
export function nodePages(core: CoreV1Api, options: RequestOptionsFactory, selectors: { labelSelector?: string; fieldSelector?: string } = {}): PageFetcher {
  const narrowed = Object.fromEntries(Object.entries(selectors).filter(([, value]) => value));
  return async ({ limit, continueToken }) => listPage(await core.listNode({ ...narrowed, limit, _continue: continueToken }, await options()));
}

/** Pages of a LIST of cluster-scoped custom objects. */
export function clusterObjectPages(custom: CustomObjectsApi, resource: { group: string; version: string; plural: string }, options: RequestOptionsFactory): PageFetcher {
  const { group, version, plural } = resource;
  return async ({ limit, continueToken }) =>
    listPage(await custom.listClusterCustomObject({ group, version, plural, limit, _continue: continueToken }, await options()));
}
