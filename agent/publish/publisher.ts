import type { V1Node } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { TaintReport } from '../../core/report/schema.ts';
import { retryOnConflict } from '../../core/kube/retry.ts';
import { diff, differs } from '../desired/node-diff.ts';
import type { DesiredNode } from '../desired/node-state.ts';
import type { EffectiveVerdict } from '../desired/verdict-hold.ts';
import type { HeartbeatDue } from '../heartbeat.ts';
import type { AgentMetrics } from '../metrics.ts';
import type { NodeApi } from '../node-api.ts';
import { decideAndWriteNode } from './attempt.ts';
import type { Exporter } from './exporter.ts';
import { conditionExporter } from './exporters/condition.ts';
import { eventsExporter } from './exporters/events.ts';
import { metricsExporter } from './exporters/metrics.ts';
import { nodeObjectExporter } from './exporters/node-object.ts';
import { reportExporter } from './exporters/report.ts';
import type { PlanSettings } from './plan.ts';
import type { ProbeOutcome } from './probe-outcome.ts';

/** What the last successful publish left on the cluster; the node watch compares against it to spot drift. */
export interface Applied {
  effective: EffectiveVerdict;
  /** The desired state as published (the share guard's refusal included). */
  desired: DesiredNode;
  taint: TaintReport;
  /** When each object was last refreshed, from what the API server holds. */
  conditionHeartbeat: Date | undefined;
  reportHeartbeat: Date | undefined;
}

export type PublisherSettings = PlanSettings;

/**
 * One publish: read → decide → plan → exporters. The Node object goes first, since its patch
 * carries the resourceVersion; a 409 there re-enters at the read (attempt.ts), here and nowhere
 * else. The other exporters then write their part of the plan, each only what changed.
 */
export class Publisher {
  private readonly api: NodeApi;
  private readonly settings: PublisherSettings;
  private readonly log: Logger;
  private readonly nodeObject: Exporter<V1Node | undefined>;
  private readonly exporters: Exporter[];

  constructor(api: NodeApi, settings: PublisherSettings, metrics: AgentMetrics, log: Logger, clock: () => Date) {
    this.api = api;
    this.settings = settings;
    this.log = log;
    this.nodeObject = nodeObjectExporter(api, log);
    this.exporters = [conditionExporter(api, log), reportExporter(api, log), eventsExporter(api, log), metricsExporter(metrics, clock)];
  }

  async publish(outcome: ProbeOutcome, heartbeat: HeartbeatDue, now: Date): Promise<Applied> {
    const decided = await retryOnConflict(
      () => decideAndWriteNode(this.api, this.nodeObject, this.settings, outcome, heartbeat, now),
      (attempt) => this.log.debug({ attempt }, 'node update conflicted; reading again'),
    );
    if (decided.effective.held) this.log.warn({ decision: 'hold', tier: decided.effective.tier, ready: decided.effective.ready }, 'probe inconclusive; keeping the published verdict');
    for (const exporter of this.exporters) await exporter.apply(decided);
    // What the agent keeps of a publish.
    return {
      effective: decided.effective,
      desired: decided.desired,
      taint: decided.taint,
      conditionHeartbeat: decided.condition.heartbeatAt,
      reportHeartbeat: decided.report.heartbeatAt,
    };
  }

  /** Whether someone changed what virtgate owns on `node` since `applied` was published. */
  drifted(applied: Applied, node: V1Node): boolean {
    return differs(diff(applied.desired, node, this.settings.keys));
  }
}
