import type { V1Node } from '@kubernetes/client-node';
import type { HostFacts } from '../../core/checks/registry.ts';
import type { NodeKeys } from '../../core/kube/names.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import type { TaintConfig } from '../config.ts';
import { type DesiredCondition, desiredCondition } from './condition.ts';
import { desiredLabels } from './labels.ts';
import { parseOwnership } from '../../core/kube/ownership.ts';
import { type DesiredTaints, desiredTaints } from './taint.ts';
import type { EffectiveVerdict } from './verdict-hold.ts';

/** Everything virtgate wants on its Node object: labels, taints and its condition. */
export interface DesiredNode {
  /** Exactly the labels virtgate owns, with their values. */
  labels: Record<string, string>;
  taints: DesiredTaints;
  condition: DesiredCondition;
}

export interface NodeSettings {
  keys: NodeKeys;
  taintConfig: TaintConfig;
}

/**
 * The desired state for `node` as it is now: a label whose check could not run keeps the value
 * the node has, and only taints the ownership annotation names as virtgate's may be lifted.
 */
export function desiredNode(settings: NodeSettings, verdict: Verdict, effective: EffectiveVerdict, facts: HostFacts, node: V1Node): DesiredNode {
  const ownership = parseOwnership(node.metadata?.annotations?.[settings.keys.ownershipAnnotation]);
  return {
    labels: desiredLabels(settings.keys, verdict, effective, facts, node.metadata?.labels ?? {}),
    taints: desiredTaints(settings.taintConfig, settings.keys, effective, ownership),
    condition: desiredCondition(verdict, effective),
  };
}
