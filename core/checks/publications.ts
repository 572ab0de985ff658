import type { LabelValue, NodeLabel } from './family.ts';
import { FAMILIES, type HostFacts } from './registry.ts';
import type { CheckOutcome } from './verdict.ts';
import type { VerdictReport } from '../report/build.ts';

/** What the families publish: the agent's labels and report read it here, the docs' tables too. */

/** Every Node label a family owns, in registry order, with the checks of the family that owns it. */
export const FAMILY_LABELS: readonly (NodeLabel & { owner: readonly string[] })[] = FAMILIES.flatMap((family) =>
  'labels' in family ? family.labels.declared.map((label) => ({ ...label, owner: family.ids })) : [],
);

/** Every report field a family owns, with the checks of the family that owns it. */
export const FAMILY_REPORT_FIELDS: readonly { field: keyof VerdictReport; owner: readonly string[] }[] = FAMILIES.flatMap((family) =>
  'report' in family ? family.report.fields.map((field) => ({ field, owner: family.ids })) : [],
);

function statusOf(checks: readonly CheckOutcome[]) {
  return (id: string) => checks.find((check) => check.id === id)?.status;
}

/** Each family label's value on this host, by name under the prefix (see LabelValue for undefined and null). */
export function familyLabelValues(facts: HostFacts, checks: readonly CheckOutcome[]): Record<string, LabelValue> {
  const status = statusOf(checks);
  return Object.assign({}, ...FAMILIES.map((family) => ('labels' in family ? family.labels.values(facts, status) : {})));
}

/** The report fields the families fill from this host. */
export function familyReport(facts: HostFacts, checks: readonly CheckOutcome[]): Partial<VerdictReport> {
  const status = statusOf(checks);
  return Object.assign({}, ...FAMILIES.map((family) => ('report' in family ? family.report.build(facts, status) : {})));
}
