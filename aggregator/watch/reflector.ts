import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { WatchStatus } from '../documents/aggregator-status.ts';
import { apiFailure } from '../../core/kube/api-error.ts';
import { isRecord } from '../model/untrusted.ts';
import { Backoff, type BackoffPolicy, DEFAULT_BACKOFF } from '../../core/kube/backoff.ts';
import { listAll, PAGE_SIZE } from '../../core/kube/list.ts';
import { objectKey } from './project.ts';
import type { ResourceClient, WatchHandle } from './resources.ts';

/**
 * A list+watch loop for one resource, written around client-node's `Watch` rather than its
 * `ListWatch`/`makeInformer`, because the informer:
 *  - stops for good after a watch error other than 410 or its own timeout (it only calls the
 *    error callbacks; a restart is left to the caller), with no jitter in its reconnects;
 *  - cannot say whether its cache is synced or its watch is broken, which /readyz needs;
 *  - keeps every object whole (a Node with its images and managedFields), where the gate needs
 *    a small projection (project.ts), narrowed once on arrival (keep.ts);
 *  - has no staleness limit of its own beyond the client's inactivity abort, and resumes from
 *    the last resourceVersion afterwards instead of relisting.
 *
 * Behaviour:
 *  - LIST (paginated) only at start, after 410 Gone, after a stale watch, and when a watch cannot
 *    resume; otherwise every (re)connect resumes the WATCH from the last resourceVersion;
 *  - the server ends each watch after a jittered timeout; it is resumed at once, without a LIST;
 *  - errors reconnect with jittered exponential backoff (Retry-After honoured); the watch is
 *    "unhealthy" from the error until a LIST completes or a WATCH is accepted again;
 *  - bookmarks (allowWatchBookmarks) keep a quiet watch's resourceVersion fresh and count as
 *    signs of life: nothing at all for `staleAfterMs` means the watch stopped silently
 *    (client-node #596, #958) and it is relisted.
 */
export interface ReflectorTiming {
  /** Nothing received, not even a bookmark, for this long: presumed dead; relist. */
  staleAfterMs: number;
  /** The server ends a watch after this long, less up to 20 % jitter. Keep it below staleAfterMs. */
  watchTimeoutSeconds: number;
  backoff: BackoffPolicy;
  pageSize: number;
}

export const DEFAULT_REFLECTOR_TIMING: ReflectorTiming = {
  staleAfterMs: 330_000,
  watchTimeoutSeconds: 300,
  backoff: DEFAULT_BACKOFF,
  pageSize: PAGE_SIZE,
};

/** A watch's status as the API serves it (aggregator/documents/aggregator-status.ts). */
export type ReflectorStatus = WatchStatus;

export interface ReflectorOptions<T> {
  kind: string;
  client: ResourceClient;
  /** What to keep of each object (must not throw). */
  project: (raw: unknown) => T;
  log: Logger;
  timing?: Partial<ReflectorTiming>;
  /** The store changed (an object added, changed, removed, or a relist). */
  onChange: () => void;
  /** `healthy` flipped. `recovered` is true when it became healthy after an error. */
  onHealth?: (healthy: boolean, recovered: boolean) => void;
  random?: () => number;
}

type WatchEnd = 'closed' | 'gone' | 'stale' | 'stopped';

/** Thrown inside the loop for a watch that ended at once, so that reconnects back off. */
class QuickCloseError extends Error {}

export class Reflector<T> {
  readonly kind: string;
  private readonly client: ResourceClient;
  private readonly project: (raw: unknown) => T;
  private readonly log: Logger;
  private readonly timing: ReflectorTiming;
  private readonly onChange: () => void;
  private readonly onHealth: (healthy: boolean, recovered: boolean) => void;
  private readonly random: () => number;

  private store = new Map<string, T>();
  private resourceVersion: string | null = null;
  private synced = false;
  private healthy = false;
  private failedSinceHealthy = false;
  private readonly backoff: Backoff;
  private lists = 0;
  private lastListAt: Date | null = null;
  private lastEventAt: Date | null = null;
  private lastError: string | null = null;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private handle: WatchHandle | undefined;
  private endWatch: ((end: WatchEnd) => void) | undefined;
  private wake: (() => void) | undefined;

  constructor(options: ReflectorOptions<T>) {
    this.kind = options.kind;
    this.client = options.client;
    this.project = options.project;
    this.log = options.log.child({ kind: options.kind });
    this.timing = { ...DEFAULT_REFLECTOR_TIMING, ...options.timing };
    this.onChange = options.onChange;
    this.onHealth = options.onHealth ?? (() => undefined);
    this.random = options.random ?? Math.random;
    this.backoff = new Backoff(this.timing.backoff, this.random);
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.endWatch?.('stopped');
    this.wake?.();
    await this.loop;
  }

  /** The projected objects, in no particular order. */
  items(): T[] {
    return [...this.store.values()];
  }

  status(): ReflectorStatus {
    return {
      kind: this.kind,
      synced: this.synced,
      healthy: this.healthy,
      objects: this.store.size,
      lastListAt: this.lastListAt?.toISOString() ?? null,
      lastEventAt: this.lastEventAt?.toISOString() ?? null,
      lists: this.lists,
      error: this.healthy ? null : this.lastError,
    };
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (this.resourceVersion === null) await this.relist();
        const end = await this.watchOnce(this.resourceVersion ?? '');
        if (end === 'gone') {
          this.log.info({ decision: 'relist', reason: '410 Gone' }, 'watch resourceVersion expired; relisting');
          this.resourceVersion = null;
        } else if (end === 'stale') {
          this.log.warn({ decision: 'relist', reason: 'stale', staleAfterMs: this.timing.staleAfterMs }, 'watch delivered nothing, not even a bookmark, for too long; relisting');
          this.resourceVersion = null;
          this.setHealthy(false, 'the watch went silent; relisting');
        }
      } catch (error) {
        if (this.stopped) break;
        const failure = apiFailure(error);
        const status = httpStatus(error);
        if (status === 410) {
          this.resourceVersion = null;
          continue;
        }
        const delay = this.backoff.fail(failure.retryAfterSeconds);
        const message = error instanceof QuickCloseError ? error.message : `${status ? `HTTP ${status}: ` : ''}${failure.message}`;
        // The first failure is news; the rest of an outage is noise.
        this.log[this.backoff.failures === 1 ? 'warn' : 'debug']({ decision: 'reconnect', err: message, failures: this.backoff.failures, retryInMs: delay }, 'list/watch failed; will retry');
        this.setHealthy(false, message);
        await this.sleep(delay);
      }
    }
  }

  private async relist(): Promise<void> {
    const listed = await listAll((page) => this.client.list(page), this.timing.pageSize, (raw) => [objectKey(raw), this.project(raw)] as const);
    if (this.stopped) return;
    const next = new Map<string, T>();
    for (const [key, value] of listed.items) if (key !== null) next.set(key, value);
    this.store = next;
    this.resourceVersion = listed.resourceVersion;
    this.lists += 1;
    this.lastListAt = new Date();
    this.synced = true;
    this.log.debug({ decision: 'listed', objects: next.size, resourceVersion: listed.resourceVersion }, 'listed');
    this.setHealthy(true);
    this.onChange();
  }

  /** One WATCH; resolves with how it ended, rejects on an error. */
  private watchOnce(resourceVersion: string): Promise<WatchEnd> {
    return new Promise<WatchEnd>((resolve, reject) => {
      const startedAt = Date.now();
      let ended = false;
      let events = 0;
      let staleTimer: NodeJS.Timeout | undefined;
      const finish = (outcome: WatchEnd | Error) => {
        if (ended) return;
        ended = true;
        clearTimeout(staleTimer);
        this.endWatch = undefined;
        this.handle?.abort();
        this.handle = undefined;
        if (this.stopped) resolve('stopped');
        else if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const touch = () => {
        clearTimeout(staleTimer);
        staleTimer = setTimeout(() => finish('stale'), this.timing.staleAfterMs);
      };
      this.endWatch = finish;
      touch();
      const onEvent = (type: string, object: unknown) => {
        if (ended) return;
        touch();
        events += 1;
        this.lastEventAt = new Date();
        if (type === 'ERROR') {
          finish(statusCode(object) === 410 ? 'gone' : watchError(object));
          return;
        }
        this.apply(type, object);
      };
      const onDone = (error: unknown) => {
        if (ended) return;
        if (error === null || error === undefined) {
          // A watch the server closes at once, again and again, must not become a request loop.
          finish(events === 0 && Date.now() - startedAt < 1000 ? new QuickCloseError('the API server closed the watch at once') : 'closed');
          return;
        }
        if (httpStatus(error) === 410) finish('gone');
        // client-node's own inactivity abort: the stream went silent.
        else if (error instanceof Error && error.name === 'TimeoutError') finish('stale');
        else finish(error instanceof Error ? error : new Error(String(error)));
      };
      const timeoutSeconds = Math.max(1, Math.round(this.timing.watchTimeoutSeconds * (1 - 0.2 * this.random())));
      this.client.watch(resourceVersion, timeoutSeconds, onEvent, onDone).then(
        (handle) => {
          if (ended) {
            handle.abort();
            return;
          }
          this.handle = handle;
          // The server accepted the watch: this resource is in sync again.
          this.backoff.succeed();
          this.setHealthy(true);
        },
        (error: unknown) => onDone(error ?? new Error('watch failed')),
      );
    });
  }

  private apply(type: string, object: unknown): void {
    const version = resourceVersionOf(object);
    if (version !== null) this.resourceVersion = version;
    if (type === 'BOOKMARK') return;
    const key = objectKey(object);
    if (key === null) return;
    if (type === 'DELETED') {
      if (this.store.delete(key)) this.onChange();
      return;
    }
    if (type !== 'ADDED' && type !== 'MODIFIED') return;
    const projected = this.project(object);
    const before = this.store.get(key);
    // Most updates (kubelet heartbeats, status timestamps) change nothing the gate reads.
    if (before !== undefined && isDeepStrictEqual(before, projected)) return;
    this.store.set(key, projected);
    this.onChange();
  }

  private setHealthy(healthy: boolean, error?: string): void {
    if (!healthy) {
      this.lastError = error ?? this.lastError;
      this.failedSinceHealthy = true;
    }
    if (healthy === this.healthy || (healthy && !this.synced)) return;
    this.healthy = healthy;
    const recovered = healthy && this.failedSinceHealthy;
    if (healthy) {
      if (recovered) this.log.info({ decision: 'recovered' }, 'list/watch works again');
      this.failedSinceHealthy = false;
      this.lastError = null;
    }
    this.onHealth(healthy, recovered);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}

/** client-node API calls carry the HTTP status in `code`; a refused WATCH in `statusCode`. */
function httpStatus(error: unknown): number {
  const status = apiFailure(error).status;
  if (status !== 0) return status;
  const code = isRecord(error) || error instanceof Error ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof code === 'number' ? code : 0;
}

function statusCode(object: unknown): number | null {
  return isRecord(object) && typeof object.code === 'number' ? object.code : null;
}

function watchError(object: unknown): Error {
  const message = isRecord(object) && typeof object.message === 'string' ? object.message : 'the watch returned an error event';
  const error = new Error(message.slice(0, 300)) as Error & { code?: number };
  const code = statusCode(object);
  if (code !== null) error.code = code;
  return error;
}

function resourceVersionOf(object: unknown): string | null {
  if (!isRecord(object) || !isRecord(object.metadata)) return null;
  const version = object.metadata.resourceVersion;
  return typeof version === 'string' && version !== '' ? version : null;
}
