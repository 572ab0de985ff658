import { collectInventory } from '../core/inventory/collect.ts';
import type { KubeConfig, V1Node } from '@kubernetes/client-node';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { evaluate } from '../core/checks/evaluate.ts';
import { probeHost } from '../core/checks/probe-host.ts';
import { runVirtHostValidate, type VhvFacts } from '../core/checks/families/vhv.ts';
import { apiFailure } from '../core/kube/api-error.ts';
import { Backoff } from '../core/kube/backoff.ts';
import { nodeKeys } from '../core/kube/names.ts';
import { VIRTGATE_VERSION } from '../core/package-info.ts';
import type { AgentConfig } from './config.ts';
import { heartbeatDue, type HeartbeatState, nextHeartbeatAt } from './heartbeat.ts';
import { agentHttp } from './http.ts';
import { AgentMetrics } from './metrics.ts';
import { NodeApi } from './node-api.ts';
import { NodeWatch } from './node-watch.ts';
import type { ProbeOutcome } from './publish/probe-outcome.ts';
import { type Applied, Publisher, type PublisherSettings } from './publish/publisher.ts';

/**
 * The DaemonSet process: probe on a jittered interval, publish what changed, refresh the
 * published objects on a slow heartbeat, re-apply when someone edits what virtgate owns, and
 * keep going, whatever the API server does.
 */
export class Agent {
  private readonly config: AgentConfig;
  private readonly log: Logger;
  private readonly metrics: AgentMetrics;
  private readonly api: NodeApi;
  private readonly publisher: Publisher;
  private readonly publisherSettings: PublisherSettings;
  private readonly watch: NodeWatch;
  private readonly http: FastifyInstance;
  private readonly now: () => Date;

  private observation: ProbeOutcome | undefined;
  private applied: Applied | undefined;
  private publishing: Promise<void> | undefined;
  private publishAgain = false;
  /** The latest Node event seen while a publish ran: judged against what that publish left. */
  private nodeSeenDuringPublish: V1Node | undefined;
  private failingSince: Date | undefined;
  /** Publish retries: exponential with full jitter up to a minute; a 429/503 Retry-After is honoured as given. */
  private readonly backoff = new Backoff({ baseMs: 2000, maxMs: 60_000, maxRetryAfterMs: Infinity });
  /** Epoch ms before which only the scheduled retry may publish: the server's Retry-After. */
  private retryNotBefore = 0;
  private lastHeartbeatWrite = 0;
  private stopping = false;
  private readonly timers = new Map<'probe' | 'heartbeat' | 'retry', NodeJS.Timeout>();

  constructor(config: AgentConfig, kc: KubeConfig, log: Logger, now: () => Date = () => new Date()) {
    this.config = config;
    this.log = log;
    this.now = now;
    this.metrics = new AgentMetrics(config.nodeName);
    this.api = new NodeApi(kc, config.nodeName, config.requestTimeoutSeconds * 1000, (resource, code) => this.metrics.recordWrite(resource, code));
    this.publisherSettings = { keys: nodeKeys(config.prefix), taintConfig: config.taint, agentVersion: VIRTGATE_VERSION };
    this.publisher = new Publisher(this.api, this.publisherSettings, this.metrics, log, () => this.now());
    this.watch = new NodeWatch(kc, config.nodeName, (node) => this.onNodeEvent(node), log, {
      watchTimeoutSeconds: config.watch.timeoutSeconds,
      staleAfterMs: config.watch.staleAfterSeconds * 1000,
      backoff: { baseMs: config.watch.backoffBaseSeconds * 1000, maxMs: config.watch.backoffMaxSeconds * 1000 },
    });
    this.http = agentHttp(this.metrics.registry, { readiness: () => this.readiness() });
  }

  /** Starts serving, probes at once, then keeps to the schedule. Resolves once the HTTP port listens. */
  async start(): Promise<{ port: number }> {
    // The port first: a port that cannot be served is a configuration error, reported alone.
    const address = await this.http.listen({ port: this.config.port, host: this.config.bindAddress });
    // The inventory of the node under the host root, as every probe reads it (the kernel's files;
    // on arm64 systeminformation for the CPU's name, which may run lscpu): once, before the first
    // probe publishes it, never per probe. Readiness waits on that probe anyway.
    const inventory = await collectInventory(undefined, this.config.hostRoot);
    this.publisherSettings.inventory = inventory;
    if (!inventory.collected) this.log.warn({ decision: 'inventory' }, inventory.reason ?? 'inventory not collected');
    this.log.info({ address, interval: this.config.intervalSeconds, heartbeat: this.config.heartbeatSeconds }, 'virtgate agent started');
    this.watch.start();
    void this.probeCycle();
    return { port: Number(new URL(address).port) };
  }

  /**
   * SIGTERM: let the publish in flight finish within the grace, then cancel what is still in
   * flight, so that nothing is written after the agent says it stopped. Never removes anything
   * from the node.
   */
  async stop(graceMs = this.config.shutdownGraceSeconds * 1000): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    void this.watch.stop();
    const inFlight = this.publishing;
    const finished = !inFlight || (await Promise.race([inFlight.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), graceMs).unref())]));
    if (!finished) this.log.warn({ decision: 'shutdown', graceMs }, 'the publish in flight did not finish within the shutdown grace; cancelling it');
    this.api.cancelAll('the agent is stopping');
    // A cancelled publish fails at once and schedules nothing: the agent is stopping.
    await inFlight;
    await this.http.close();
    this.log.info('virtgate agent stopped');
  }

  readiness(): { ready: boolean; reason: string } {
    if (!this.observation) return { ready: false, reason: 'the first probe has not finished' };
    if (this.failingSince) {
      const seconds = (this.now().getTime() - this.failingSince.getTime()) / 1000;
      if (seconds > this.config.publishFailureThresholdSeconds) {
        return { ready: false, reason: `publishing has been failing for ${Math.round(seconds)} s` };
      }
    }
    return { ready: true, reason: this.applied ? 'published' : 'probed; publishing' };
  }

  private schedule(name: 'probe' | 'heartbeat' | 'retry', delayMs: number, run: () => void): void {
    clearTimeout(this.timers.get(name));
    if (this.stopping) return;
    this.timers.set(name, setTimeout(run, Math.max(0, delayMs)));
  }

  /** One probe and the publish it triggers, awaited: what every scheduled cycle does. */
  private async cycle(): Promise<void> {
    const started = performance.now();
    try {
      const { config } = this;
      const vhv: Promise<VhvFacts> = config.vhv.enabled
        ? runVirtHostValidate({ command: config.vhv.command, timeoutSeconds: config.vhv.timeoutSeconds })
        : Promise.resolve({ state: 'disabled' });
      const [facts, vhvFacts] = await Promise.all([probeHost(config.hostRoot, { enabled: config.kvmRun }), vhv]);
      const verdict = evaluate(facts, vhvFacts, config.policy);
      const probedAt = this.now();
      this.metrics.recordProbe(verdict, (performance.now() - started) / 1000, probedAt);
      const before = this.observation?.verdict;
      if (!before || before.tier !== verdict.tier || before.ready !== verdict.ready || before.conclusive !== verdict.conclusive) {
        this.log.info({ decision: 'verdict', tier: verdict.tier, ready: verdict.ready, conclusive: verdict.conclusive }, 'probe verdict');
      }
      this.observation = { verdict, facts, probedAt };
      await this.requestPublish('probe');
    } catch (error) {
      // Probes turn I/O errors into `error` results; reaching here is a bug, never a reason to stop.
      this.log.error({ err: error instanceof Error ? error.message : String(error) }, 'probe cycle failed');
    }
  }

  private async probeCycle(): Promise<void> {
    // Not awaited beyond the probe: a slow API server must not delay the next probe.
    const cycle = this.cycle();
    const { intervalSeconds, jitter } = this.config;
    // Jitter keeps thousands of nodes from probing and writing in step.
    const delay = intervalSeconds * 1000 * (1 + jitter * (2 * Math.random() - 1));
    this.schedule('probe', delay, () => void this.probeCycle());
    await cycle;
  }

  /** Publishes now, or once more after the publish in flight; resolves when that is done. */
  private requestPublish(reason: string): Promise<void> {
    if (this.stopping || !this.observation) return Promise.resolve();
    // The server asked for a pause (429/503 Retry-After): a probe, heartbeat or drift must not
    // cut it short; the scheduled retry publishes the latest observation when it is over.
    if (reason !== 'retry' && this.retryPending()) return Promise.resolve();
    if (this.publishing) {
      this.publishAgain = true;
      return this.publishing;
    }
    this.publishing = (async () => {
      do {
        this.publishAgain = false;
        await this.publishOnce(reason);
      } while (this.publishAgain && !this.stopping && !this.retryPending());
    })().finally(() => {
      this.publishing = undefined;
    });
    return this.publishing;
  }

  private async publishOnce(reason: string): Promise<void> {
    const observation = this.observation;
    if (!observation) return;
    const now = this.now();
    const heartbeat = this.applied
      ? heartbeatDue(this.heartbeatState(this.applied), now, this.config.heartbeatSeconds * 1000)
      : { condition: false, report: false };
    // The publish reads the node first, so events from before now are superseded by that read.
    this.nodeSeenDuringPublish = undefined;
    try {
      const refusedBefore = this.applied?.taint.refused;
      this.applied = await this.publisher.publish(observation, heartbeat, now);
      const { refused } = this.applied.taint;
      // Once per new reason, not every cycle: the report and the metric carry it meanwhile.
      if (refused && refused !== refusedBefore) this.log.warn({ decision: 'taint-refused', reason: refused }, 'taint guard refused to taint this node');
      const seen = this.nodeSeenDuringPublish;
      this.nodeSeenDuringPublish = undefined;
      if (seen && !this.api.knows(seen)) this.checkDrift(seen, this.applied);
      if (heartbeat.condition || heartbeat.report) this.lastHeartbeatWrite = now.getTime();
      if (this.failingSince) this.log.info({ decision: 'recovered', reason }, 'publishing works again');
      this.failingSince = undefined;
      this.backoff.succeed();
      this.retryNotBefore = 0;
      clearTimeout(this.timers.get('retry'));
      this.scheduleHeartbeat();
    } catch (error) {
      const failure = apiFailure(error);
      this.metrics.recordPublishFailure();
      if (this.stopping) {
        this.log.warn({ decision: 'publish-failed', reason, status: failure.status, err: failure.message }, 'publish failed while stopping; not retrying');
        return;
      }
      this.failingSince ??= now;
      const delay = this.backoff.fail(failure.retryAfterSeconds);
      this.retryNotBefore = failure.retryAfterSeconds !== undefined ? this.now().getTime() + delay : 0;
      this.log.warn({ decision: 'publish-failed', reason, status: failure.status, err: failure.message, retryInMs: Math.round(delay) }, 'publish failed; will retry');
      this.schedule('retry', delay, () => void this.requestPublish('retry'));
    }
  }

  private retryPending(): boolean {
    return this.now().getTime() < this.retryNotBefore;
  }

  private heartbeatState(applied: Applied): HeartbeatState {
    return { conditionAt: applied.conditionHeartbeat, reportAt: applied.reportHeartbeat, lastHeartbeatWrite: this.lastHeartbeatWrite };
  }

  private scheduleHeartbeat(): void {
    if (!this.applied) return;
    const next = nextHeartbeatAt(this.heartbeatState(this.applied), this.now(), this.config.heartbeatSeconds * 1000);
    this.schedule('heartbeat', next - this.now().getTime(), () => void this.requestPublish('heartbeat'));
  }

  private onNodeEvent(node: V1Node): void {
    // Mid-publish the event may be our own write, and `applied` is about to change: a change
    // someone makes then would otherwise be judged against the old state, or not at all.
    if (this.publishing || !this.applied) {
      this.nodeSeenDuringPublish = node;
      return;
    }
    this.checkDrift(node, this.applied);
  }

  /** Someone changed the node: publish again if what virtgate owns no longer matches. */
  private checkDrift(node: V1Node, applied: Applied): void {
    if (!this.publisher.drifted(applied, node)) return;
    this.log.info({ decision: 'drift' }, 'what virtgate owns on the node was changed; re-applying');
    void this.requestPublish('drift');
  }
}
