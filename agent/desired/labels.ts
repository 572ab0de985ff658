import type { NodeLabel } from '../../core/checks/family.ts';
import type { HostFacts } from '../../core/checks/registry.ts';
import { familyLabelValues } from '../../core/checks/publications.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import type { NodeKeys } from '../../core/kube/names.ts';
import type { EffectiveVerdict } from './verdict-hold.ts';

/** The verdict's own labels; every other label belongs to a check family. */
export const VERDICT_LABELS: readonly NodeLabel[] = [
  { name: 'ready', values: '`true`, `false`', meaning: 'the node can run VMs under the policy: point KubeVirt\'s nodePlacement here' },
  { name: 'tier', values: '`hardware`, `emulation`, `none`', meaning: 'how VMs would run: with KVM, emulated by QEMU (TCG), or not at all' },
];

/**
 * The labels virtgate wants on its node: the verdict's (ready, tier) and each check family's own
 * (core/checks/families, `labels`). A label whose value the host could not tell keeps its current
 * value (or stays absent): the agent never writes a guess.
 */
export function desiredLabels(
  keys: NodeKeys,
  verdict: Verdict,
  effective: EffectiveVerdict,
  facts: HostFacts,
  current: Readonly<Record<string, string>>,
): Record<string, string> {
  const labels: Record<string, string> = {};
  const keep = (key: string) => {
    const value = current[key];
    if (value !== undefined) labels[key] = value;
  };

  if (effective.undecided) {
    keep(keys.labels.ready);
    keep(keys.labels.tier);
  } else {
    labels[keys.labels.ready] = String(effective.ready);
    labels[keys.labels.tier] = effective.tier;
  }
  for (const [name, value] of Object.entries(familyLabelValues(facts, verdict.checks))) {
    const key = keys.familyLabel(name);
    if (value === undefined) keep(key);
    else if (value !== null) labels[key] = value;
  }
  return labels;
}
