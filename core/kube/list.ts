/**
 * LIST, a page at a time: a LIST of thousands of objects in one response is what hurts API
 * servers. Every LIST virtgate makes goes through `listAll`.
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
    resourceVersion: typeof metadata.resourceVersion === 'string' ? metadata.resourceVersion : '',
    continueToken: typeof next === 'string' && next !== '' ? next : undefined,
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
