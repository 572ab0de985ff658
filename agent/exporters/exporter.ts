import type { V1Node } from '@kubernetes/client-node';
import type { HostFacts } from '../../core/checks/registry.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import type { DesiredNode } from '../desired/node-state.ts';
import type { EffectiveVerdict, PublishedVerdict } from '../desired/verdict-hold.ts';

/** One probe's outcome, as the agent hands it to the publisher. */
export interface Observation {
  verdict: Verdict;
  facts: HostFacts;
  probedAt: Date;
}

/** Which objects a publish may refresh although nothing changed (heartbeat). */
export interface HeartbeatDue {
  condition: boolean;
  report: boolean;
}

/**
 * What one publish knows, handed to every exporter in turn: the probe, the verdict to publish,
 * the Node as last read or written, and what virtgate wants on it.
 */
export interface NodeStatus {
  observation: Observation;
  effective: EffectiveVerdict;
  /** The verdict the node's labels carried before this publish, if virtgate put them there. */
  previous: PublishedVerdict | undefined;
  node: V1Node;
  desired: DesiredNode;
  /** The share guard's refusal to taint this node, if it refused. */
  taintRefused: string | undefined;
  heartbeat: HeartbeatDue;
  now: Date;
}

/**
 * One output of the agent, in node-problem-detector's shape: given the status, write what
 * differs from what is published, and nothing else. `Result` is what the exporter learnt that
 * the next publish needs (e.g. when its object was last refreshed).
 */
export interface Exporter<Result = void> {
  export(status: NodeStatus): Promise<Result>;
}
