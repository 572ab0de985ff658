import type { V1Node } from '@kubernetes/client-node';
import type { DesiredCondition } from '../../desired/condition.ts';
import type { EffectiveVerdict, PublishedVerdict } from '../../desired/verdict-hold.ts';

export interface VerdictEvent {
  reason: 'VirtualizationReady' | 'VirtualizationNotReady';
  type: 'Normal' | 'Warning';
  message: string;
  nodeUid: string;
  from: PublishedVerdict;
}

/** One Event when the published verdict changes; none for the first publish or a held verdict. */
export function planEvent(effective: EffectiveVerdict, previous: PublishedVerdict | undefined, condition: DesiredCondition, node: V1Node): VerdictEvent | undefined {
  if (!previous || effective.held || (previous.ready === effective.ready && previous.tier === effective.tier)) return undefined;
  return {
    reason: effective.ready ? 'VirtualizationReady' : 'VirtualizationNotReady',
    type: effective.ready ? 'Normal' : 'Warning',
    message: `virtgate verdict changed: ready ${previous.ready} → ${effective.ready}, tier ${previous.tier} → ${effective.tier}: ${condition.message}`,
    nodeUid: node.metadata?.uid ?? '',
    from: previous,
  };
}
