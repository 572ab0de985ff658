import { GATE_CHECK_IDS } from '../documents/gate-check-ids.ts';
import { privilegedRule } from './checks/cluster.ts';
import { confidentialRule } from './checks/confidential.ts';
import { dataFreshRule } from './checks/data-fresh.ts';
import { hostDevicesRule } from './checks/host-devices.ts';
import { deployedRule, emulationConsistentRule } from './checks/kubevirt.ts';
import { kernelUserlandRule, migrationPairsRule, minReadyRule, reportsFreshRule, runtimeRule } from './checks/nodes.ts';
import { placementRule } from './checks/placement.ts';
import { cdiPairedRule, kubernetesEolRule, kubernetesSupportedRule } from './checks/tuple.ts';

/**
 * Every gate rule, in the order the gate reports them. A new rule: its function and `gateRule`
 * line in a file under checks/, one line here, its test, its row in docs/gate.md, and
 * `npm run generate:gate-ids`, which writes the check ids of the gate's JSON, metrics and page
 * (documents/gate-check-ids.ts) from these lists.
 */

/** The version checks: `virtgate tuple` runs these alone. */
export const TUPLE_RULES = [kubernetesSupportedRule, kubernetesEolRule, cdiPairedRule, dataFreshRule] as const;

/** The checks of the cluster's objects, after the version checks. */
export const CLUSTER_RULES = [
  deployedRule,
  emulationConsistentRule,
  confidentialRule,
  placementRule,
  hostDevicesRule,
  minReadyRule,
  runtimeRule,
  migrationPairsRule,
  kernelUserlandRule,
  reportsFreshRule,
  privilegedRule,
] as const;

type IdsOf<Rules extends readonly { id: string }[]> = { readonly [Index in keyof Rules]: Rules[Index]['id'] };

/** The ids as a typed tuple (map loses the tuple's element types, so the result is asserted). */
function idsOf<const Rules extends readonly { id: string }[]>(rules: Rules): IdsOf<Rules> {
  return rules.map((rule) => rule.id) as unknown as IdsOf<Rules>;
}

export const TUPLE_RULE_IDS = idsOf(TUPLE_RULES);
export const GATE_RULE_IDS = [...TUPLE_RULE_IDS, ...idsOf(CLUSTER_RULES)] as const;

// The published ids are a generated copy of these (light enough for the page's build, which must not
// load the rules): a rule added, removed or moved here without `npm run generate:gate-ids` fails here.
GATE_RULE_IDS satisfies typeof GATE_CHECK_IDS;
GATE_CHECK_IDS satisfies typeof GATE_RULE_IDS;

/** Where the generated ids live, from the package root. */
export const GATE_CHECK_IDS_FILE = 'aggregator/documents/gate-check-ids.ts';

/** The text of GATE_CHECK_IDS_FILE, made from these lists. */
export function gateCheckIdsModule(): string {
  const list = (ids: readonly string[], indent: string) => ids.map((id) => `${indent}'${id}',`).join('\n');
  return [
    '// Generated from aggregator/gate/rules.ts by `npm run generate:gate-ids`: do not edit.',
    "/** Stable gate check ids, in the gate's order: the JSON, the metrics and the page use them (docs/gate.md). */",
    'export const TUPLE_CHECK_IDS = [',
    list(TUPLE_RULE_IDS, '  '),
    '] as const;',
    '',
    'export const GATE_CHECK_IDS = [',
    '  ...TUPLE_CHECK_IDS,',
    list(idsOf(CLUSTER_RULES), '  '),
    '] as const;',
    '',
  ].join('\n');
}
