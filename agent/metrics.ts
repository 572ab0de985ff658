import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CHECK_IDS } from '../core/checks/registry.ts';
import { CHECK_STATUSES } from '../core/checks/outcome.ts';
import { TIERS, type Verdict } from '../core/checks/verdict.ts';
import { registerBuildInfo } from '../core/metrics/build-info.ts';
import type { EffectiveVerdict } from './desired/verdict-hold.ts';

/**
 * The agent's Prometheus series (docs/metrics.md). Every series carries `node`, so a scrape of many
 * agents stays readable; prom-client's process and Node.js metrics and `virtgate_build_info` too.
 */
export class AgentMetrics {
  readonly registry: Registry;
  private readonly checkStatus: Gauge<'check' | 'status'>;
  private readonly tier: Gauge<'tier'>;
  private readonly ready: Gauge;
  private readonly conclusive: Gauge;
  private readonly probeDuration: Histogram;
  private readonly lastProbe: Gauge;
  private readonly lastPublishSuccess: Gauge;
  private readonly apiWrites: Counter<'resource' | 'code'>;
  private readonly publishFailures: Counter;
  private readonly taintRefused: Gauge;

  constructor(nodeName: string) {
    this.registry = new Registry();
    this.registry.setDefaultLabels({ node: nodeName });
    const registers = [this.registry];
    this.checkStatus = new Gauge({
      name: 'virtgate_check_status',
      help: 'Result of each host check: 1 for the current status, 0 for the others.',
      labelNames: ['check', 'status'],
      registers,
    });
    this.tier = new Gauge({ name: 'virtgate_node_tier', help: 'Published tier: 1 for the current tier.', labelNames: ['tier'], registers });
    this.ready = new Gauge({ name: 'virtgate_node_ready', help: '1 when the published verdict is ready.', registers });
    this.conclusive = new Gauge({ name: 'virtgate_probe_conclusive', help: '0 when a tier-deciding check could not run.', registers });
    this.probeDuration = new Histogram({
      name: 'virtgate_probe_duration_seconds',
      help: 'Duration of one probe cycle, virt-host-validate included.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.lastProbe = new Gauge({ name: 'virtgate_last_probe_timestamp_seconds', help: 'When the last probe cycle finished.', registers });
    this.lastPublishSuccess = new Gauge({ name: 'virtgate_last_publish_success_timestamp_seconds', help: 'When the verdict was last published successfully.', registers });
    this.apiWrites = new Counter({
      name: 'virtgate_agent_api_writes_total',
      help: 'Write requests to the Kubernetes API, by resource (nodes, nodes/status, nodevalidations, events, ...) and HTTP status code ("<error>" without an answer).',
      labelNames: ['resource', 'code'],
      registers,
    });
    this.publishFailures = new Counter({ name: 'virtgate_publish_failures_total', help: 'Publish attempts that failed.', registers });
    this.taintRefused = new Gauge({ name: 'virtgate_taint_refused', help: '1 while the share guard refuses to taint this failing node.', registers });
    registerBuildInfo(this.registry);
    collectDefaultMetrics({ register: this.registry });
  }

  recordProbe(verdict: Verdict, seconds: number, finishedAt: Date): void {
    this.probeDuration.observe(seconds);
    this.lastProbe.set(finishedAt.getTime() / 1000);
    this.conclusive.set(verdict.conclusive ? 1 : 0);
    for (const id of CHECK_IDS) {
      const status = verdict.checks.find((check) => check.id === id)?.status;
      for (const candidate of CHECK_STATUSES) this.checkStatus.set({ check: id, status: candidate }, candidate === status ? 1 : 0);
    }
  }

  recordPublished(effective: EffectiveVerdict, taintRefused: boolean, at: Date): void {
    this.lastPublishSuccess.set(at.getTime() / 1000);
    this.taintRefused.set(taintRefused ? 1 : 0);
    if (effective.undecided) return;
    this.ready.set(effective.ready ? 1 : 0);
    for (const tier of TIERS) this.tier.set({ tier }, tier === effective.tier ? 1 : 0);
  }

  /** One write request (agent/node-api.ts counts every write here, once). */
  recordWrite(resource: string, code: string): void {
    this.apiWrites.inc({ resource, code });
  }

  recordPublishFailure(): void {
    this.publishFailures.inc();
  }
}
