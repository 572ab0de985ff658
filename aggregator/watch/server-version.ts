import { type KubeConfig, VersionApi } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { ServerVersionStatus } from '../documents/aggregator-status.ts';
import { apiFailure } from '../../core/kube/api-error.ts';
import { Backoff, type BackoffPolicy, DEFAULT_BACKOFF } from '../../core/kube/backoff.ts';
import { callOptions } from './resources.ts';

export type { ServerVersionStatus } from '../documents/aggregator-status.ts';

/**
 * The API server's version, read at start and again after a watch recovers (an API server that
 * came back may have been upgraded). A failed read keeps the last value and retries with backoff.
 */
export class ServerVersion {
  private readonly api: VersionApi;
  private readonly log: Logger;
  private readonly requestTimeoutMs: number;
  private readonly signal: AbortSignal;
  private readonly backoff: Backoff;
  private readonly onChange: () => void;
  private gitVersion: string | null = null;
  private readAt: Date | null = null;
  private error: string | null = null;
  private reading: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(kc: KubeConfig, options: { log: Logger; requestTimeoutMs: number; signal: AbortSignal; backoff?: BackoffPolicy; onChange: () => void }) {
    this.api = kc.makeApiClient(VersionApi);
    this.log = options.log;
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.signal = options.signal;
    this.backoff = new Backoff(options.backoff ?? DEFAULT_BACKOFF);
    this.onChange = options.onChange;
  }

  status(): ServerVersionStatus {
    return { gitVersion: this.gitVersion, readAt: this.readAt?.toISOString() ?? null, error: this.error };
  }

  /** Reads the version now (one read at a time; a read in flight is reused). */
  refresh(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    clearTimeout(this.retryTimer);
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
  }

  private async read(): Promise<void> {
    try {
      const info = await this.api.getCode(callOptions({ requestTimeoutMs: this.requestTimeoutMs, signal: this.signal }));
      const gitVersion = typeof info.gitVersion === 'string' ? info.gitVersion : null;
      this.backoff.succeed();
      this.error = null;
      this.readAt = new Date();
      if (gitVersion !== this.gitVersion) {
        this.log.info({ decision: 'server-version', gitVersion, previous: this.gitVersion }, 'API server version');
        this.gitVersion = gitVersion;
        this.onChange();
      }
    } catch (error) {
      if (this.stopped) return;
      const failure = apiFailure(error);
      this.error = `${failure.status ? `HTTP ${failure.status}: ` : ''}${failure.message}`;
      const delay = this.backoff.fail(failure.retryAfterSeconds);
      this.log.debug({ err: this.error, retryInMs: delay }, 'cannot read the API server version; will retry');
      this.retryTimer = setTimeout(() => void this.refresh(), delay);
    }
  }
}
