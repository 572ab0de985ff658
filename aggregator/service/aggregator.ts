import type { KubeConfig } from '@kubernetes/client-node';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { VIRTGATE_VERSION } from '../../core/package-info.ts';
import { type AggregatorConfig, gateConfigOf, watchTimingOf } from '../config.ts';
import { evaluateGate } from '../gate/gate.ts';
import type { GateStatus } from '../documents/gate.ts';
import { buildHttp } from '../http/server.ts';
import { ConnectionDrain } from '../http/drain.ts';
import { type AggregatorRegistry, createAggregatorMetrics } from '../metrics.ts';
import { modelOf } from '../model/cluster.ts';
import { canaryView } from '../canary/view.ts';
import type { GateConfig } from '../model/config.ts';
import type { VersionData } from '../versions/schema.ts';
import { ClusterWatch } from '../watch/cluster-watch.ts';
import type { WatchClients } from '../watch/resources.ts';
import type { ReflectorTiming } from '../watch/reflector.ts';
import { DEFAULT_RECOMPUTE_TIMING, RecomputeScheduler, type RecomputeTiming } from './recompute-scheduler.ts';
import type { AggregatorSettings, AggregatorStatus } from '../documents/aggregator-status.ts';
import type { LatestGate, GateSource } from './gate-source.ts';

export interface AggregatorOptions {
  kc: KubeConfig;
  config: AggregatorConfig;
  data: VersionData;
  log: Logger;
  /** The gate's date and the report ages come from this clock; tests inject one. */
  now?: () => Date;
  timing?: { watch?: Partial<ReflectorTiming>; recompute?: Partial<RecomputeTiming> };
  pageDirectory?: string;
  /** The watches' API clients; by default made from `kc` (the bench passes synthetic ones). */
  clients?: WatchClients;
}

/**
 * `virtgate aggregator`: keeps the cluster's objects current (ClusterWatch), recomputes the gate
 * when they change (debounced) and every minute (ages move with the clock), and serves the latest
 * report over HTTP. Handlers never evaluate the gate. Read-only towards the API server.
 */
export class Aggregator implements GateSource {
  readonly app: FastifyInstance;
  readonly registry: AggregatorRegistry;
  private readonly connections: ConnectionDrain;
  private readonly config: AggregatorConfig;
  private readonly gateConfig: GateConfig;
  private readonly data: VersionData;
  private readonly log: Logger;
  private readonly clock: () => Date;
  private readonly watch: ClusterWatch;
  private readonly scheduler: RecomputeScheduler;
  private readonly settings: AggregatorSettings;
  private latestGate: LatestGate | null = null;
  private lastInSync: Date | null = null;
  private lastResult: GateStatus | null = null;

  constructor(options: AggregatorOptions) {
    this.config = options.config;
    this.gateConfig = gateConfigOf(options.config);
    this.data = options.data;
    this.log = options.log;
    this.clock = options.now ?? (() => new Date());
    this.settings = {
      prefix: this.config.prefix,
      minReady: this.config.minReady,
      staleAfterSeconds: this.config.staleAfterSeconds,
      eolWarnDays: this.config.eolWarnDays,
      dataMaxAgeDays: this.config.dataMaxAgeDays,
      versionsFile: this.config.versionsFile,
      dataUpdated: this.data.updated,
    };
    this.scheduler = new RecomputeScheduler(() => this.recompute(), { ...DEFAULT_RECOMPUTE_TIMING, ...options.timing?.recompute });
    this.watch = new ClusterWatch({
      kc: options.kc,
      log: this.log,
      requestTimeoutMs: this.config.requestTimeoutSeconds * 1000,
      timing: { ...watchTimingOf(options.config.watch), ...options.timing?.watch },
      onChange: () => this.scheduler.request(),
      onStatus: () => this.scheduler.request(),
      ...(options.clients ? { clients: options.clients } : {}),
    });
    this.registry = createAggregatorMetrics(this, { perNodeMetrics: this.config.perNodeMetrics });
    this.app = buildHttp(this, this.registry, {
      ...(options.pageDirectory ? { pageDirectory: options.pageDirectory } : {}),
      onWarning: (message) => this.log.warn({ decision: 'page-missing' }, message),
    });
    this.connections = new ConnectionDrain(this.app);
  }

  /** Starts watching; the report appears once every watched kind has been listed. */
  start(): void {
    this.watch.start();
    this.scheduler.start();
  }

  /** Serves HTTP on the configured address; resolves with the address (port 0 picks one). */
  async listen(): Promise<string> {
    return this.app.listen({ port: this.config.port, host: this.config.bindAddress });
  }

  /**
   * The first step of a graceful stop (SIGTERM): kept-alive clients asked to reconnect elsewhere
   * for up to `config.shutdownDrainSeconds` (http/drain.ts); `stop` then closes the server.
   */
  async drain(): Promise<{ leftOpen: number }> {
    return this.connections.drain(this.config.shutdownDrainSeconds);
  }

  async stop(): Promise<void> {
    this.scheduler.stop();
    await this.watch.stop();
    await this.app.close();
  }

  now(): Date {
    return this.clock();
  }

  latest(): LatestGate | null {
    return this.latestGate;
  }

  /**
   * Evaluates the gate on the objects at hand and the clock now. Before the first full sync
   * there is nothing trustworthy to evaluate; after it, a broken watch leaves the last-known
   * objects in place (and /readyz, the page and the metrics say so).
   */
  recompute(): void {
    const sync = this.watch.status();
    if (!sync.synced && this.latestGate === null) return;
    const now = this.clock();
    const started = performance.now();
    const model = modelOf(this.watch.parsed());
    const result = evaluateGate(model, this.data, this.gateConfig, now);
    const durationMs = performance.now() - started;
    this.latestGate = { result, computedAt: now, durationMs, canary: canaryView(model, now) };
    this.registry.observeRecompute(durationMs / 1000);
    if (sync.healthy) this.lastInSync = now;
    if (result.result !== this.lastResult) {
      const failing = result.checks.filter((check) => check.status !== 'pass').map((check) => `${check.id}=${check.status}`);
      this.log.info({ decision: 'gate', result: result.result, previous: this.lastResult, notPassing: failing, nodes: result.readiness.total }, 'gate result');
      this.lastResult = result.result;
    }
    this.log.debug({ durationMs: Math.round(durationMs), nodes: result.readiness.total }, 'recomputed');
  }

  status(): AggregatorStatus {
    const sync = this.watch.status();
    const latest = this.latestGate;
    const ready = sync.healthy && latest !== null;
    return {
      ready,
      reason: ready ? sync.reason : latest === null && sync.healthy ? 'synced; computing the first report' : sync.reason,
      synced: sync.synced,
      healthy: sync.healthy,
      lastInSyncAt: this.lastInSync?.toISOString() ?? null,
      reportComputedAt: latest?.computedAt.toISOString() ?? null,
      reportAgeSeconds: latest === null ? null : Math.max(0, Math.round((this.clock().getTime() - latest.computedAt.getTime()) / 1000)),
      recomputeSeconds: latest === null ? null : Math.round(latest.durationMs) / 1000,
      serverVersion: sync.serverVersion,
      watches: sync.watches,
      settings: this.settings,
      virtgateVersion: VIRTGATE_VERSION,
    };
  }
}
