import { describe, expect, it } from 'vitest';
import { listAll, listPage, type PageRequest } from './list.ts';

describe('listPage', () => {
  it('reads typed (_continue) and plain (continue) list metadata alike', () => {
    expect(listPage({ items: [1], metadata: { resourceVersion: '5', _continue: 'a' } })).toEqual({ items: [1], resourceVersion: '5', continueToken: 'a' });
    expect(listPage({ items: [], metadata: { continue: 'b' } })).toEqual({ items: [], resourceVersion: '', continueToken: 'b' });
    expect(listPage({ metadata: { continue: '' } })).toEqual({ items: [], resourceVersion: '', continueToken: undefined });
    expect(listPage(undefined)).toEqual({ items: [], resourceVersion: '', continueToken: undefined });
  });
});

describe('listAll', () => {
  it('follows continue tokens to the last page, projecting each item, keeping the last resourceVersion', async () => {
    const requests: PageRequest[] = [];
    const pages = [
      { items: [1, 2], resourceVersion: '10', continueToken: 'p2' },
      { items: [3], resourceVersion: '', continueToken: undefined },
    ];
    const listed = await listAll(async (request) => {
      requests.push(request);
      return pages[requests.length - 1]!;
    }, 2, (item) => Number(item) * 10);
    expect(listed).toEqual({ items: [10, 20, 30], resourceVersion: '10' });
    expect(requests).toEqual([
      { limit: 2, continueToken: undefined },
      { limit: 2, continueToken: 'p2' },
    ]);
  });
});
