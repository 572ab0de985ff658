import type { Logger } from 'pino';
import { isRecord, nonEmptyString } from '../json.ts';
import { apiFailure } from './api-error.ts';
import { Backoff, type BackoffPolicy, DEFAULT_BACKOFF } from './backoff.ts';

/**
 * The one WATCH loop with reconnect, for the agent's own-Node watch and the aggregator's
 * reflectors. Written around client-node's `Watch` rather than its informer, which stops for good
 * after most errors, reconnects without jitter, and has no staleness limit of its own.
 *
 *  - With `relist`: LIST at start, after 410 Gone and after a stale watch; every other reconnect
 *    resumes the WATCH from the last resourceVersion seen (bookmarks included).
 *  - Without `relist`: every WATCH starts without a resourceVersion, so the server first sends
 *    the current objects as ADDED — a relist in one request, right for a watch of one object.
 *  - The server ends each watch after `watchTimeoutSeconds`, less up to `jitter` of it, so many
 *    watches do not come back in step; it is reopened at once.
 *  - Errors reconnect with jittered exponential backoff (Retry-After honoured, core/kube/backoff.ts).
 *    A watch the server closes at once, again and again, backs off too instead of looping.
 *  - Nothing at all, not even a bookmark, for `staleAfterMs`: the watch stopped silently
 *    (client-node #596, #958); it is dropped and relisted.
 */
export interface WatchTiming {
  /** The server ends a watch after this long, less up to `jitter`. Keep it below staleAfterMs. */
  watchTimeoutSeconds: number;
  /** Fraction (0..1) by which each watch's timeout is randomly shortened. */
  jitter: number;
  /** Nothing received, not even a bookmark, for this long: presumed dead. */
  staleAfterMs: number;
  /** Reconnect delays after errors. */
  backoff: BackoffPolicy;
}

export const DEFAULT_WATCH_TIMING: WatchTiming = {
  watchTimeoutSeconds: 300,
  jitter: 0.2,
  staleAfterMs: 330_000,
  backoff: DEFAULT_BACKOFF,
};

/** client-node's inactivity abort sits this far behind our own staleness limit: a backstop only. */
export const INACTIVITY_BACKSTOP_MS = 30_000;

export interface WatchHandle {
  abort(): void;
}

/**
 * Opens one WATCH from `resourceVersion` (none: current objects first) with bookmarks; resolves
 * once the server answered. When the request failed, `onDone` has been called with the error.
 */
export type OpenWatch = (
  resourceVersion: string | undefined,
  timeoutSeconds: number,
  onEvent: (type: string, object: unknown) => void,
  onDone: (error: unknown) => void,
) => Promise<WatchHandle>;

export interface WatchLoopOptions {
  open: OpenWatch;
  /** A full LIST; resolves with its resourceVersion. Without it, see above. */
  relist?: () => Promise<string>;
  /** ADDED, MODIFIED or DELETED (bookmarks and error events are the loop's own business). */
  onEvent: (type: string, object: unknown) => void;
  /** The server accepted a WATCH: in sync again. */
  onWatching?: () => void;
  /** A LIST or WATCH failed (or the watch went silent); the loop retries by itself. */
  onFailure?: (message: string) => void;
  /** Carries the caller's context (e.g. the kind). */
  log: Logger;
  timing?: Partial<WatchTiming>;
  random?: () => number;
}

type WatchEnd = 'closed' | 'gone' | 'stale' | 'stopped';

/** A watch that ended at once, without an event: treated as a failure so that reconnects back off. */
class QuickCloseError extends Error {}

export class WatchLoop {
  private readonly options: WatchLoopOptions;
  private readonly timing: WatchTiming;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private resourceVersion: string | undefined;
  private needsList = true;
  private lastEvent: Date | null = null;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private handle: WatchHandle | undefined;
  private endWatch: ((end: WatchEnd) => void) | undefined;
  private wake: (() => void) | undefined;

  constructor(options: WatchLoopOptions) {
    this.options = options;
    this.timing = { ...DEFAULT_WATCH_TIMING, ...options.timing };
    this.random = options.random ?? Math.random;
    this.backoff = new Backoff(this.timing.backoff, this.random);
  }

  /** The last event or bookmark. */
  get lastEventAt(): Date | null {
    return this.lastEvent;
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

  private async run(): Promise<void> {
    const { log } = this.options;
    while (!this.stopped) {
      try {
        if (this.needsList) await this.list();
        if (this.stopped) break;
        const end = await this.watchOnce();
        if (end === 'gone') {
          log.info({ decision: 'relist', reason: '410 Gone' }, 'watch resourceVersion expired; relisting');
          this.forget();
        } else if (end === 'stale') {
          log.warn({ decision: 'relist', reason: 'stale', staleAfterMs: this.timing.staleAfterMs }, 'watch delivered nothing, not even a bookmark, for too long; relisting');
          this.forget();
          this.options.onFailure?.('the watch went silent; relisting');
        }
      } catch (error) {
        if (this.stopped) break;
        if (httpStatus(error) === 410) {
          this.forget();
          continue;
        }
        const failure = apiFailure(error);
        const delay = this.backoff.fail(failure.retryAfterSeconds);
        const status = httpStatus(error);
        const message = error instanceof QuickCloseError ? error.message : `${status ? `HTTP ${status}: ` : ''}${failure.message}`;
        // The first failure is news; the rest of an outage is noise.
        log[this.backoff.failures === 1 ? 'warn' : 'debug']({ decision: 'reconnect', err: message, failures: this.backoff.failures, retryInMs: delay }, 'list/watch failed; will retry');
        this.options.onFailure?.(message);
        await this.sleep(delay);
      }
    }
  }

  /** What was seen is no longer a valid place to resume from. */
  private forget(): void {
    this.resourceVersion = undefined;
    this.needsList = true;
  }

  private async list(): Promise<void> {
    if (this.options.relist) this.resourceVersion = await this.options.relist();
    this.needsList = false;
  }

  /** One WATCH; resolves with how it ended, rejects on an error. */
  private watchOnce(): Promise<WatchEnd> {
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
        this.lastEvent = new Date();
        if (type === 'ERROR') {
          finish(statusCode(object) === 410 ? 'gone' : watchError(object));
          return;
        }
        // Without a relist to fall back on, a resume point is never kept (see the top of the file).
        if (this.options.relist) this.resourceVersion = resourceVersionOf(object) ?? this.resourceVersion;
        if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') this.options.onEvent(type, object);
      };
      const onDone = (error: unknown) => {
        if (ended) return;
        if (error === null || error === undefined) {
          finish(events === 0 && Date.now() - startedAt < 1000 ? new QuickCloseError('the API server closed the watch at once') : 'closed');
          return;
        }
        if (httpStatus(error) === 410) finish('gone');
        // client-node's own inactivity abort: the stream went silent.
        else if (error instanceof Error && error.name === 'TimeoutError') finish('stale');
        else finish(error instanceof Error ? error : new Error(String(error)));
      };
      const timeoutSeconds = Math.max(1, Math.round(this.timing.watchTimeoutSeconds * (1 - this.timing.jitter * this.random())));
      this.options.open(this.resourceVersion, timeoutSeconds, onEvent, onDone).then(
        (handle) => {
          if (ended) {
            handle.abort();
            return;
          }
          this.handle = handle;
          this.backoff.succeed();
          this.options.onWatching?.();
        },
        (error: unknown) => onDone(error ?? new Error('watch failed')),
      );
    });
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

function resourceVersionOf(object: unknown): string | undefined {
  return isRecord(object) && isRecord(object.metadata) ? nonEmptyString(object.metadata.resourceVersion) : undefined;
}
