import type { KubeConfig, V1Node } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { apiFailure } from '../core/kube/api-error.ts';
import { Backoff, type BackoffPolicy } from '../core/kube/backoff.ts';
import { type StartWatch, watchPath } from '../core/kube/watch.ts';

export interface NodeWatchOptions {
  /** The server ends each watch after this long; a new one starts at once. */
  serverTimeoutSeconds: number;
  /** Watches that deliver nothing (not even a bookmark) for this long are restarted: client watches can stop silently. */
  staleAfterMs: number;
  /** Reconnects after an error back off within this; a clean end reconnects at once. */
  backoff: BackoffPolicy;
}

/**
 * Watches only this agent's own Node (field selector), so it can re-apply at once when someone
 * removes an owned label or taint. Each (re)connect starts without a resourceVersion: the server
 * sends the current object first, so nothing missed while disconnected goes unnoticed.
 */
export class NodeWatch {
  private readonly watch: StartWatch;
  private readonly onNode: (node: V1Node) => void;
  private readonly log: Logger;
  private readonly options: NodeWatchOptions;
  private controller: AbortController | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly backoff: Backoff;
  private stopped = false;

  constructor(kc: KubeConfig, nodeName: string, onNode: (node: V1Node) => void, log: Logger, options: NodeWatchOptions) {
    // Its own staleness timer is the real limit; client-node's inactivity abort only a backstop.
    this.watch = watchPath(kc, '/api/v1/nodes', { inactivityMs: options.staleAfterMs + 30_000, query: { fieldSelector: `metadata.name=${nodeName}` } });
    this.onNode = onNode;
    this.log = log;
    this.options = options;
    this.backoff = new Backoff(options.backoff);
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
      this.controller = await this.watch(
        { timeoutSeconds: this.options.serverTimeoutSeconds },
        (type, object) => {
          this.touch();
          this.backoff.succeed();
          if (type === 'ADDED' || type === 'MODIFIED') this.onNode(object as V1Node);
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
    let delay = 0;
    if (error && !aborted) {
      const failure = apiFailure(error);
      delay = this.backoff.fail(failure.retryAfterSeconds);
      this.log.debug({ err: failure, failures: this.backoff.failures }, 'node watch ended with an error');
    }
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }
}
