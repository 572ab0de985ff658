import type { V1Node } from '@kubernetes/client-node';
import type { Inventory } from '../core/inventory/schema.ts';
import type { Logger } from 'pino';
import type { NodeKeys } from '../core/kube/names.ts';
import type { TaintReport } from '../core/report/schema.ts';
import type { TaintConfig } from './config.ts';
import { desiredNode, type DesiredNode, diff, differs } from './desired/node-state.ts';
import { type Ownership, parseOwnership } from '../core/kube/ownership.ts';
import { taintReport } from './desired/taint.ts';
import { type EffectiveVerdict, holdVerdict, type PublishedVerdict } from './desired/verdict-hold.ts';
import { conditionExporter } from './exporters/condition.ts';
import { eventsExporter } from './exporters/events.ts';
import type { Exporter, HeartbeatDue, NodeStatus, Observation } from './exporters/exporter.ts';
import { metricsExporter } from './exporters/metrics.ts';
import { nodeLabelsTaintsExporter } from './exporters/node-labels-taints.ts';
import { reportExporter } from './exporters/report.ts';
import { TaintGuard } from './exporters/taint-guard.ts';
import type { AgentMetrics } from './metrics.ts';
import type { NodeApi } from './node-api.ts';

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

export interface PublisherSettings {
  keys: NodeKeys;
  taintConfig: TaintConfig;
  agentVersion: string;
  /** The hardware inventory (core/inventory), collected once at start before the first probe. */
  inventory?: Inventory;
}

function previousVerdict(node: V1Node, keys: NodeKeys, ownership: Ownership): PublishedVerdict | undefined {
  const labels = node.metadata?.labels ?? {};
  const ready = labels[keys.labels.ready];
  const tier = labels[keys.labels.tier];
  if (!ownership.labels.includes(keys.labels.ready) || (ready !== 'true' && ready !== 'false')) return undefined;
  if (tier !== 'hardware' && tier !== 'emulation' && tier !== 'none') return undefined;
  return { ready: ready === 'true', tier };
}

/**
 * One publish: read the Node, work out the verdict to publish and the desired state, then hand
 * the status to each exporter in turn (labels and taints first: the others report their outcome).
 * Each exporter writes only what differs.
 */
export class Publisher {
  private readonly api: NodeApi;
  private readonly settings: PublisherSettings;
  private readonly log: Logger;
  private readonly node: Exporter<NodeStatus>;
  private readonly condition: Exporter<Date | undefined>;
  private readonly report: Exporter<Date | undefined>;
  private readonly events: Exporter;
  private readonly metrics: Exporter;

  constructor(api: NodeApi, settings: PublisherSettings, metrics: AgentMetrics, log: Logger, clock: () => Date) {
    this.api = api;
    this.settings = settings;
    this.log = log;
    const guard = new TaintGuard(api, settings.keys, settings.taintConfig);
    this.node = nodeLabelsTaintsExporter(api, settings, guard, log);
    this.condition = conditionExporter(api, settings.keys, log);
    this.report = reportExporter(api, settings, log);
    this.events = eventsExporter(api, log);
    this.metrics = metricsExporter(metrics, clock);
  }

  async publish(observation: Observation, heartbeat: HeartbeatDue, now: Date): Promise<Applied> {
    const { keys } = this.settings;
    const { verdict, facts } = observation;
    const node = await this.api.readNode();
    const previous = previousVerdict(node, keys, parseOwnership(node.metadata?.annotations?.[keys.ownershipAnnotation]));
    const effective = holdVerdict(verdict, previous);
    if (effective.held) this.log.warn({ decision: 'hold', tier: effective.tier, ready: effective.ready }, 'probe inconclusive; keeping the published verdict');
    const desired = desiredNode(this.settings, verdict, effective, facts, node);
    const initial: NodeStatus = { observation, effective, previous, node, desired, taintRefused: undefined, heartbeat, now };

    const status = await this.node.export(initial);
    const conditionHeartbeat = await this.condition.export(status);
    const reportHeartbeat = await this.report.export(status);
    await this.events.export(status);
    await this.metrics.export(status);
    return {
      effective,
      desired: status.desired,
      taint: taintReport(this.settings.taintConfig, keys, status.node, status.taintRefused),
      conditionHeartbeat,
      reportHeartbeat,
    };
  }

  /** Whether someone changed what virtgate owns on `node` since `applied` was published. */
  drifted(applied: Applied, node: V1Node): boolean {
    return differs(diff(applied.desired, node, this.settings.keys));
  }
}
