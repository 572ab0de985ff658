import type { NodeModel } from '../model/node.ts';
import type { NodeSelectorRequirement, NodeSelectorTerm } from '../model/placement.ts';

/**
 * Kubernetes node selection, as kube-scheduler and the DaemonSet controller apply it
 * (k8s.io/component-helpers/scheduling/corev1/nodeaffinity):
 *  - nodeSelector: every key must be present with exactly that value;
 *  - required node affinity: terms are ORed; within a term all expressions and fields are ANDed;
 *    an empty term, or an empty term list, matches nothing;
 *  - a malformed requirement (unknown operator, wrong number of values) makes its term match nothing.
 */

export function matchesNodeSelector(labels: Readonly<Record<string, string>>, selector: Readonly<Record<string, string>>): boolean {
  // for-in over own keys rather than Object.entries: this runs for every node on every recompute,
  // and must not allocate a list per node.
  for (const key in selector) {
    if (!Object.hasOwn(selector, key)) continue;
    if (!Object.hasOwn(labels, key) || labels[key] !== selector[key]) return false;
  }
  return true;
}

/** `null` terms mean "no required affinity": every node matches. */
export function matchesRequiredTerms(node: NodeModel, terms: readonly NodeSelectorTerm[] | null): boolean {
  if (terms === null) return true;
  return terms.some((term) => matchesTerm(node, term));
}

export function matchesTerm(node: NodeModel, term: NodeSelectorTerm): boolean {
  if (term.matchExpressions.length === 0 && term.matchFields.length === 0) return false;
  return (
    term.matchExpressions.every((requirement) => matchesRequirement(node.labels, requirement)) &&
    term.matchFields.every((requirement) => matchesField(node, requirement))
  );
}

/** One label requirement (matchExpressions entry). */
export function matchesRequirement(labels: Readonly<Record<string, string>>, requirement: NodeSelectorRequirement): boolean {
  const present = Object.hasOwn(labels, requirement.key);
  const value = present ? labels[requirement.key] : undefined;
  const { values } = requirement;
  switch (requirement.operator) {
    case 'In':
      return values.length > 0 && value !== undefined && values.includes(value);
    case 'NotIn':
      // A node without the key matches NotIn, as in Kubernetes label selectors.
      return values.length > 0 && (value === undefined || !values.includes(value));
    case 'Exists':
      return values.length === 0 && present;
    case 'DoesNotExist':
      return values.length === 0 && !present;
    case 'Gt':
    case 'Lt': {
      const bound = values.length === 1 ? parseInteger(values[0]) : null;
      const actual = value === undefined ? null : parseInteger(value);
      if (bound === null || actual === null) return false;
      return requirement.operator === 'Gt' ? actual > bound : actual < bound;
    }
    default:
      return false;
  }
}

/** matchFields supports only `metadata.name` with In / NotIn, as in Kubernetes. */
function matchesField(node: NodeModel, requirement: NodeSelectorRequirement): boolean {
  if (requirement.key !== 'metadata.name') return false;
  if (requirement.operator !== 'In' && requirement.operator !== 'NotIn') return false;
  return matchesRequirement({ 'metadata.name': node.name }, requirement);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(value, 10, 64): optional sign, decimal digits, within int64. */
function parseInteger(value: string | undefined): bigint | null {
  if (value === undefined || !/^[+-]?\d{1,20}$/.test(value)) return null;
  const parsed = BigInt(value);
  return parsed < INT64_MIN || parsed > INT64_MAX ? null : parsed;
}
