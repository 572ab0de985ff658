import type { ResourceClient } from './resources.ts';

/** Every item of a paginated LIST; `keep` projects each one as it arrives (pages are dropped). */
export async function listAll<T>(client: ResourceClient, pageSize: number, keep: (raw: unknown) => T): Promise<{ items: T[]; resourceVersion: string }> {
  const items: T[] = [];
  let continueToken: string | undefined;
  let resourceVersion = '';
  do {
    const page = await client.list({ limit: pageSize, continueToken });
    resourceVersion = page.resourceVersion || resourceVersion;
    for (const item of page.items) items.push(keep(item));
    continueToken = page.continueToken;
  } while (continueToken !== undefined);
  return { items, resourceVersion };
}
