import { nonEmptyString } from '../json.ts';
import type { ApiextensionsV1Api, ConfigurationOptions, CoreV1Api, CustomObjectsApi, ObservableMiddleware } from '@kubernetes/client-node';

/**
 * LIST, a page at a time: a LIST of thousands of objects in one response is what hurts API
 * servers. Every LIST virtgate makes goes through `listAll`, its pages fetched by one of the
 * fetchers at the end of this file.
 */
/** Page size of every LIST: large enough for few round trips, small enough for the API server. */
export const PAGE_SIZE = 500;

export interface ListPage {
  items: unknown[];
  resourceVersion: string;
  continueToken: string | undefined;
}

export interface PageRequest {
  limit: number;
  continueToken: string | undefined;
}

export type PageFetcher = (page: PageRequest) => Promise<ListPage>;

/** The page of a LIST response, whether client-node typed it (V1NodeList: `_continue`) or not (custom objects: `continue`). */
export function listPage(response: unknown): ListPage {
  const body = (response ?? {}) as { items?: unknown; metadata?: { resourceVersion?: unknown; _continue?: unknown; continue?: unknown } };
  const metadata = body.metadata ?? {};
  const next = metadata._continue ?? metadata.continue;
  return {
    items: Array.isArray(body.items) ? body.items : [],
    resourceVersion: nonEmptyString(metadata.resourceVersion) ?? '',
    continueToken: nonEmptyString(next),
  };
}

/** Every item of a paginated LIST; `keep` projects each one as it arrives (pages are dropped). */
export async function listAll<T>(fetchPage: PageFetcher, pageSize: number, keep: (raw: unknown) => T): Promise<{ items: T[]; resourceVersion: string }> {
  const items: T[] = [];
  let continueToken: string | undefined;
  let resourceVersion = '';
  do {
    const page = await fetchPage({ limit: pageSize, continueToken });
    resourceVersion = page.resourceVersion || resourceVersion;
    for (const item of page.items) items.push(keep(item));
    continueToken = page.continueToken;
  } while (continueToken !== undefined);
  return { items, resourceVersion };
}

/** Per-request options, made afresh for each page (each carries its own timeout). */
export type RequestOptionsFactory = () => ConfigurationOptions<ObservableMiddleware> | Promise<ConfigurationOptions<ObservableMiddleware>>;

/** Label and field selectors; empty ones are left out of the request. */
export interface Selectors {
  labelSelector?: string;
  fieldSelector?: string;
}

const given = (selectors: Selectors) => Object.fromEntries(Object.entries(selectors).filter(([, value]) => value));

/** Pages of a Node LIST, optionally narrowed by label and field selectors. */
export function nodePages(core: CoreV1Api, options: RequestOptionsFactory, selectors: Selectors = {}): PageFetcher {
  const narrowed = given(selectors);
  return async ({ limit, continueToken }) => listPage(await core.listNode({ ...narrowed, limit, _continue: continueToken }, await options()));
}

/** Pages of a CustomResourceDefinition LIST, optionally narrowed (by name: a field selector). */
export function crdPages(api: ApiextensionsV1Api, options: RequestOptionsFactory, selectors: Selectors = {}): PageFetcher {
  const narrowed = given(selectors);
  return async ({ limit, continueToken }) => listPage(await api.listCustomResourceDefinition({ ...narrowed, limit, _continue: continueToken }, await options()));
}

export interface CustomResourceName {
  group: string;
  version: string;
  plural: string;
}

/** Pages of a LIST of cluster-scoped custom objects. */
export function clusterObjectPages(custom: CustomObjectsApi, resource: CustomResourceName, options: RequestOptionsFactory): PageFetcher {
  const { group, version, plural } = resource;
  return async ({ limit, continueToken }) =>
    listPage(await custom.listClusterCustomObject({ group, version, plural, limit, _continue: continueToken }, await options()));
}

/** Pages of a LIST of namespaced custom objects across all namespaces. */
export function allNamespacesObjectPages(custom: CustomObjectsApi, resource: CustomResourceName, options: RequestOptionsFactory): PageFetcher {
  const { group, version, plural } = resource;
  return async ({ limit, continueToken }) =>
    listPage(await custom.listCustomObjectForAllNamespaces({ group, version, resourcePlural: plural, limit, _continue: continueToken }, await options()));
}
