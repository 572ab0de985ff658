import { type KubeConfig, type V1Node, Watch } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { apiFailure } from '../core/kube/api-error.ts';

export interface NodeWatchOptions {
  /** The server ends each watch after this long; a new one starts at once. */
  serverTimeoutSeconds: number;
  /** Watches that deliver nothing (not even a bookmark) for this long are restarted: client watches can stop silently. */
  staleAfterMs: number;
}

/**
 * Watches only this agent's own Node (field selector), so it can re-apply at once when someone
 * removes an owned label or taint. Each (re)connect starts without a resourceVersion: the server
 * sends the current object first, so nothing missed while disconnected goes unnoticed.
 */
export class NodeWatch {
  private readonly watch: Watch;
  private readonly nodeName: string;
  private readonly onNode: (node: V1Node) => void;
  private readonly log: Logger;
  private readonly options: NodeWatchOptions;
  private controller: AbortController | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;

  constructor(kc: KubeConfig, nodeName: string, onNode: (node: V1Node) => void, log: Logger, options: NodeWatchOptions) {
    this.watch = new Watch(kc);
    // client-node aborts a watch after 30 s without data, but the API server sends bookmarks only
    // about once a minute: the watch of a quiet Node would be re-opened every 30 s. Its own
    // staleness timer is the real limit (the field is private in the typings, hence Object.assign).
    Object.assign(this.watch, { requestTimeoutMs: options.staleAfterMs + 30_000 });
    this.nodeName = nodeName;
    this.onNode = onNode;
    this.log = log;
    this.options = options;
  }

  start(): void {
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.staleTimer);
    clearTimeout(this.retryTimer);
    this.controller?.abort();
  }

  private touch(): void {
    clearTimeout(this.staleTimer);
    this.staleTimer = setTimeout(() => {
      this.log.warn({ decision: 'watch-stale' }, 'node watch delivered nothing for too long; reconnecting');
      this.controller?.abort();
    }, this.options.staleAfterMs);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.touch();
    try {
      this.controller = await this.watch.watch(
        '/api/v1/nodes',
        { fieldSelector: `metadata.name=${this.nodeName}`, allowWatchBookmarks: true, timeoutSeconds: this.options.serverTimeoutSeconds },
        (type: string, object: V1Node) => {
          this.touch();
          this.failures = 0;
          if (type === 'ADDED' || type === 'MODIFIED') this.onNode(object);
        },
        (error: unknown) => this.reconnect(error),
      );
    } catch (error) {
      this.reconnect(error);
    }
  }

  private reconnect(error: unknown): void {
    clearTimeout(this.staleTimer);
    if (this.stopped) return;
    const aborted = error instanceof Error && error.name === 'AbortError';
    if (error && !aborted) {
      this.failures += 1;
      this.log.debug({ err: apiFailure(error), failures: this.failures }, 'node watch ended with an error');
    }
    // Exponential backoff with full jitter, capped at 30 s; a clean end reconnects at once.
    const delay = error && !aborted ? Math.random() * Math.min(30_000, 500 * 2 ** this.failures) : 0;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }
}
