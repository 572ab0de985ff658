import type { V1Node } from '@kubernetes/client-node';
import { desiredNode, type DesiredNode, type NodeSettings } from '../desired/node-state.ts';
import { type EffectiveVerdict, holdVerdict, publishedVerdict, type PublishedVerdict } from '../desired/verdict-hold.ts';
import type { ProbeOutcome } from './probe-outcome.ts';

/** What one probe outcome means for the node as read, before the share guard is asked. */
export interface Decision {
  outcome: ProbeOutcome;
  /** The verdict the node's labels carried before this publish, if virtgate put them there. */
  previous: PublishedVerdict | undefined;
  /** The verdict to publish: a probe that could not tell keeps the published one. */
  effective: EffectiveVerdict;
  /** What virtgate wants on the Node, virtgate's taint included if the policy wants it. */
  desired: DesiredNode;
  /** The policy wants virtgate's taint: the publish reads the taint pool for the share guard. */
  wantsTaint: boolean;
}

export function decide(outcome: ProbeOutcome, node: V1Node, settings: NodeSettings): Decision {
  const previous = publishedVerdict(node, settings.keys);
  const effective = holdVerdict(outcome.verdict, previous);
  const desired = desiredNode(settings, outcome.verdict, effective, outcome.facts, node);
  const wantsTaint = desired.taints.present.some((taint) => taint.key === settings.keys.notReadyTaint);
  return { outcome, previous, effective, desired, wantsTaint };
}
