import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Reflector } from './reflector.ts';
import type { ListPage } from '../../core/kube/list.ts';
import type { ResourceClient, WatchHandle } from './resources.ts';

/** A scripted API: LIST answers from a queue, every WATCH is kept so the test can drive it. */
interface FakeWatch {
  resourceVersion: string;
  aborted: boolean;
  emit(type: string, object: unknown): void;
  close(error?: unknown): void;
}

class FakeClient implements ResourceClient {
  readonly watches: FakeWatch[] = [];
  listCalls = 0;
  /** What the next LISTs answer (the last entry repeats). */
  lists: Array<ListPage[] | Error> = [];
  /** The next WATCH fails with this instead of connecting. */
  watchError: unknown = null;

  async list({ continueToken }: { limit: number; continueToken: string | undefined }): Promise<ListPage> {
    const script = this.lists.length > 1 ? this.lists.shift() : this.lists[0];
    if (continueToken === undefined) this.listCalls += 1;
    if (script === undefined) throw new Error('no list scripted');
    if (script instanceof Error) throw script;
    const index = continueToken === undefined ? 0 : Number(continueToken);
    const page = script[index];
    if (!page) throw new Error(`no page ${index}`);
    return page;
  }

  async watch(resourceVersion: string, _timeoutSeconds: number, onEvent: (type: string, object: unknown) => void, onDone: (error: unknown) => void): Promise<WatchHandle> {
    if (this.watchError !== null) {
      const error = this.watchError;
      this.watchError = null;
      onDone(error);
      return { abort: () => undefined };
    }
    const watch: FakeWatch = { resourceVersion, aborted: false, emit: onEvent, close: (error?: unknown) => onDone(error ?? null) };
    this.watches.push(watch);
    return { abort: () => void (watch.aborted = true) };
  }

  get current(): FakeWatch {
    const watch = this.watches.at(-1);
    if (!watch) throw new Error('no watch yet');
    return watch;
  }
}

const object = (name: string, resourceVersion: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, resourceVersion }, ...extra });
const page = (resourceVersion: string, items: unknown[], continueToken?: string): ListPage => ({ items, resourceVersion, continueToken });

function setup(timing = {}) {
  const client = new FakeClient();
  const onChange = vi.fn();
  const onHealth = vi.fn();
  const reflector = new Reflector<unknown>({
    kind: 'things',
    client,
    project: (raw) => (raw as { metadata: { name: string }; spec?: unknown }).spec ?? null,
    log: pino({ level: 'silent' }),
    timing: { staleAfterMs: 60_000, watchTimeoutSeconds: 30, backoff: { baseMs: 1000, maxMs: 8000 }, pageSize: 2, ...timing },
    onChange,
    onHealth,
    random: () => 0.5,
  });
  return { client, reflector, onChange, onHealth };
}

/** Lets the reflector's promise chains run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('Reflector', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('lists every page once, then watches from the list resourceVersion and applies events', async () => {
    const { client, reflector, onChange } = setup();
    client.lists = [[page('10', [object('a', '5', { spec: 1 }), object('b', '6', { spec: 2 })], '1'), page('10', [object('c', '7', { spec: 3 })])]];
    reflector.start();
    await settle();
    expect(client.listCalls).toBe(1);
    expect(reflector.items().sort()).toEqual([1, 2, 3]);
    expect(reflector.status()).toMatchObject({ synced: true, healthy: true, objects: 3, lists: 1 });
    expect(client.current.resourceVersion).toBe('10');

    onChange.mockClear();
    client.current.emit('ADDED', object('d', '11', { spec: 4 }));
    client.current.emit('MODIFIED', object('a', '12', { spec: 10 }));
    client.current.emit('DELETED', object('b', '13'));
    expect(reflector.items().sort((x, y) => Number(x) - Number(y))).toEqual([3, 4, 10]);
    expect(onChange).toHaveBeenCalledTimes(3);

    // An update that changes nothing the projection keeps is not a change.
    client.current.emit('MODIFIED', object('a', '14', { spec: 10 }));
    expect(onChange).toHaveBeenCalledTimes(3);
    await reflector.stop();
  });

  it('resumes a watch the server closed from the last resourceVersion (a bookmark counts) without a LIST', async () => {
    const { client, reflector } = setup();
    client.lists = [[page('10', [])]];
    reflector.start();
    await settle();
    client.current.emit('BOOKMARK', { metadata: { resourceVersion: '42' } });
    await vi.advanceTimersByTimeAsync(5000);
    client.current.close();
    await settle();
    expect(client.watches).toHaveLength(2);
    expect(client.current.resourceVersion).toBe('42');
    expect(client.listCalls).toBe(1);
    expect(reflector.status().healthy).toBe(true);
    await reflector.stop();
  });

  it('relists on a 410 Gone error event, and objects deleted meanwhile disappear', async () => {
    const { client, reflector, onChange } = setup();
    client.lists = [[page('10', [object('a', '1', { spec: 'a' }), object('b', '2', { spec: 'b' })])], [page('50', [object('a', '40', { spec: 'a' })])]];
    reflector.start();
    await settle();
    onChange.mockClear();
    client.current.emit('ERROR', { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 10 (45)' });
    await settle();
    expect(client.listCalls).toBe(2);
    expect(reflector.items()).toEqual(['a']);
    expect(onChange).toHaveBeenCalled();
    expect(client.current.resourceVersion).toBe('50');
    expect(reflector.status().healthy).toBe(true);
    await reflector.stop();
  });

  it('relists when the WATCH request itself answers 410', async () => {
    const { client, reflector } = setup();
    client.lists = [[page('10', [])]];
    reflector.start();
    await vi.advanceTimersByTimeAsync(5000);
    client.watchError = Object.assign(new Error('Gone'), { statusCode: 410 });
    client.current.close();
    await settle();
    expect(client.listCalls).toBe(2);
    await reflector.stop();
  });

  it('after an error: unhealthy, jittered backoff, then resumes the watch without a LIST', async () => {
    const { client, reflector, onHealth } = setup();
    client.lists = [[page('10', [])]];
    reflector.start();
    await settle();
    client.current.emit('ADDED', object('a', '11', { spec: 1 }));
    client.watchError = Object.assign(new TypeError('fetch failed'), { cause: new Error('connect ECONNREFUSED 127.0.0.1:6443') });
    client.current.close(new Error('socket hang up'));
    await settle();
    expect(reflector.status()).toMatchObject({ synced: true, healthy: false });
    expect(reflector.status().error).toContain('socket hang up');
    expect(onHealth).toHaveBeenLastCalledWith(false, false);
    const watchesBefore = client.watches.length;
    // First failure: full jitter of 1 s (random 0.5 → 500 ms); the second (refused) waits up to 2 s (→ 1 s).
    await vi.advanceTimersByTimeAsync(499);
    expect(client.watches.length).toBe(watchesBefore);
    await vi.advanceTimersByTimeAsync(1);
    expect(reflector.status().error).toContain('ECONNREFUSED');
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.watches.length).toBe(watchesBefore + 1);
    expect(client.current.resourceVersion).toBe('11');
    expect(client.listCalls).toBe(1);
    expect(reflector.status()).toMatchObject({ healthy: true, error: null });
    expect(onHealth).toHaveBeenLastCalledWith(true, true);
    expect(reflector.items()).toEqual([1]);
    await reflector.stop();
  });

  it('relists a watch that went silent (no event, not even a bookmark, for staleAfter)', async () => {
    const { client, reflector, onHealth } = setup({ staleAfterMs: 60_000 });
    client.lists = [[page('10', [])], [page('20', [object('a', '19', { spec: 'missed' })])]];
    reflector.start();
    await settle();
    const silent = client.current;
    await vi.advanceTimersByTimeAsync(59_000);
    silent.emit('BOOKMARK', { metadata: { resourceVersion: '12' } });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(client.listCalls).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(silent.aborted).toBe(true);
    expect(client.listCalls).toBe(2);
    expect(reflector.items()).toEqual(['missed']);
    expect(onHealth).toHaveBeenCalledWith(false, false);
    expect(reflector.status().healthy).toBe(true);
    await reflector.stop();
  });

  it('backs off when the server closes every watch at once, instead of looping', async () => {
    const { client, reflector } = setup();
    client.lists = [[page('10', [])]];
    reflector.start();
    await settle();
    for (let i = 0; i < 20; i += 1) {
      client.current.close();
      await vi.advanceTimersByTimeAsync(100);
    }
    // 2 s of closes-at-once: with backoff only a handful of reconnects, never 20.
    expect(client.watches.length).toBeLessThan(8);
    expect(client.listCalls).toBe(1);
    await reflector.stop();
  });

  it('keeps retrying a LIST that fails, and reports why it is not synced', async () => {
    const { client, reflector } = setup();
    client.lists = [Object.assign(new Error('forbidden'), { code: 403, body: { message: 'nodes is forbidden: User "x" cannot list resource "nodes"' } }), [page('10', [])]];
    reflector.start();
    await settle();
    expect(reflector.status()).toMatchObject({ synced: false, healthy: false });
    expect(reflector.status().error).toMatch(/HTTP 403: nodes is forbidden/);
    await vi.advanceTimersByTimeAsync(500);
    expect(reflector.status()).toMatchObject({ synced: true, healthy: true });
    expect(client.listCalls).toBe(2);
    await reflector.stop();
  });

  it('stops: aborts the watch and does not reconnect', async () => {
    const { client, reflector } = setup();
    client.lists = [[page('10', [])]];
    reflector.start();
    await settle();
    const watch = client.current;
    await reflector.stop();
    expect(watch.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(client.watches).toHaveLength(1);
    expect(client.listCalls).toBe(1);
  });
});
