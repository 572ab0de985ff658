import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { WatchStatus } from '../documents/aggregator-status.ts';
import { listAll, PAGE_SIZE } from '../../core/kube/list.ts';
import { DEFAULT_WATCH_TIMING, WatchLoop, type WatchTiming } from '../../core/kube/watch-loop.ts';
import { objectKey } from './project.ts';
import type { ResourceClient } from './resources.ts';

/**
 * A store of one resource kept current by the shared list+watch loop (core/kube/watch-loop.ts:
 * resume from the last resourceVersion, relist on 410 Gone or a silent watch, jittered backoff).
 * What it adds to client-node's informer, and why it is not one:
 *  - it says whether its cache is synced and its watch healthy, which /readyz needs: "unhealthy"
 *    from an error until a LIST completes or a WATCH is accepted again;
 *  - it keeps a small projection of each object (project.ts), narrowed once on arrival (keep.ts),
 *    where the informer keeps every object whole (a Node with its images and managedFields).
 */
export interface ReflectorTiming extends WatchTiming {
  pageSize: number;
}

export const DEFAULT_REFLECTOR_TIMING: ReflectorTiming = { ...DEFAULT_WATCH_TIMING, pageSize: PAGE_SIZE };

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

export class Reflector<T> {
  readonly kind: string;
  private readonly client: ResourceClient;
  private readonly project: (raw: unknown) => T;
  private readonly log: Logger;
  private readonly timing: ReflectorTiming;
  private readonly onChange: () => void;
  private readonly onHealth: (healthy: boolean, recovered: boolean) => void;
  private readonly loop: WatchLoop;

  private store = new Map<string, T>();
  private synced = false;
  private healthy = false;
  private failedSinceHealthy = false;
  private lists = 0;
  private lastListAt: Date | null = null;
  private lastError: string | null = null;
  private stopped = false;

  constructor(options: ReflectorOptions<T>) {
    this.kind = options.kind;
    this.client = options.client;
    this.project = options.project;
    this.log = options.log.child({ kind: options.kind });
    this.timing = { ...DEFAULT_REFLECTOR_TIMING, ...options.timing };
    this.onChange = options.onChange;
    this.onHealth = options.onHealth ?? (() => undefined);
    this.loop = new WatchLoop({
      open: (resourceVersion, timeoutSeconds, onEvent, onDone) => this.client.watch(resourceVersion ?? '', timeoutSeconds, onEvent, onDone),
      relist: () => this.relist(),
      onEvent: (type, object) => this.apply(type, object),
      onWatching: () => this.setHealthy(true),
      onFailure: (message) => this.setHealthy(false, message),
      log: this.log,
      timing: this.timing,
      ...(options.random ? { random: options.random } : {}),
    });
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
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
      lastEventAt: this.loop.lastEventAt?.toISOString() ?? null,
      lists: this.lists,
      error: this.healthy ? null : this.lastError,
    };
  }

  /** A full LIST replaces the store; resolves with the resourceVersion to watch from. */
  private async relist(): Promise<string> {
    const listed = await listAll((page) => this.client.list(page), this.timing.pageSize, (raw) => [objectKey(raw), this.project(raw)] as const);
    if (this.stopped) return listed.resourceVersion;
    const next = new Map<string, T>();
    for (const [key, value] of listed.items) if (key !== null) next.set(key, value);
    this.store = next;
    this.lists += 1;
    this.lastListAt = new Date();
    this.synced = true;
    this.log.debug({ decision: 'listed', objects: next.size, resourceVersion: listed.resourceVersion }, 'listed');
    this.setHealthy(true);
    this.onChange();
    return listed.resourceVersion;
  }

  private apply(type: string, object: unknown): void {
    const key = objectKey(object);
    if (key === null) return;
    if (type === 'DELETED') {
      if (this.store.delete(key)) this.onChange();
      return;
    }
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
}
