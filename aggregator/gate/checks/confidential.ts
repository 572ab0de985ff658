import { type ConfidentialKind, KIND_NAME } from '../../../core/checks/host/confidential-kinds.ts';
import type { KubeVirtSummary } from '../../model/kubevirt.ts';
import { clip } from '../../../core/untrusted.ts';
import type { AssessedNode } from '../../readiness/assess-node.ts';
import { MAX_LISTED, plural } from '../evidence.ts';
import { type ClusterInputs, type Finding, gateRule } from '../rule.ts';
import { kubevirtMissing } from './kubevirt.ts';

/**
 * KubeVirt's feature gates for confidential guests (KubeVirt v1.9.0,
 * pkg/virt-config/featuregate/active.go) and the kinds each lets a VMI ask for
 * (pkg/virt-api/webhooks/amd64.go: launchSecurity.sev and .snp need WorkloadEncryptionSEV,
 * .tdx needs WorkloadEncryptionTDX).
 */
export const CONFIDENTIAL_GATES = {
  WorkloadEncryptionSEV: ['sev-snp', 'sev-es', 'sev'],
  WorkloadEncryptionTDX: ['tdx'],
} as const satisfies Record<string, readonly ConfidentialKind[]>;
type ConfidentialGate = keyof typeof CONFIDENTIAL_GATES;

/** KubeVirt's node-labeller labels (kubevirt.io/api core/v1 SEVLabel, SEVESLabel, SEVSNPLabel, TDXLabel): "true" or absent. */
export const KUBEVIRT_KIND_LABEL: Record<ConfidentialKind, string> = {
  sev: 'kubevirt.io/sev',
  'sev-es': 'kubevirt.io/sev-es',
  'sev-snp': 'kubevirt.io/sev-snp',
  tdx: 'kubevirt.io/tdx',
};
/** virt-handler sets it once it runs on a node: only there has its node-labeller had its say. */
const SCHEDULABLE_LABEL = 'kubevirt.io/schedulable';

/** Why a ready node cannot run any kind of a gate: the reason of the gate's weakest kind, which the others need too. */
function reasonFor(item: AssessedNode, kinds: readonly ConfidentialKind[]): string {
  const confidential = item.report?.confidential;
  if (!confidential) return 'its report has no confidential-guest reading (an older agent, or the host could not tell)';
  const base = kinds[kinds.length - 1] as ConfidentialKind;
  return clip(confidential[base].reason ?? 'no reason given', 200);
}

/**
 * kubevirt.confidential (pure): for each confidential feature gate the KubeVirt CR enables
 * explicitly in spec.configuration.developerConfiguration.featureGates:
 * - no ready node can run any kind it covers → fail, naming the nodes and the reason per node;
 * - otherwise, where KubeVirt's node-labeller (kubevirt.io/sev, sev-es, sev-snp, tdx) and
 *   virtgate's reading disagree on a node virt-handler runs on → warn, naming both;
 * - else pass, with how many ready nodes can run each kind.
 * No gate listed → pass. WorkloadEncryptionSEV is Beta in KubeVirt 1.9 and so on by default; a
 * default says nothing about wanting confidential VMs, so only an explicit entry counts.
 * No KubeVirt → unknown (kubevirt.deployed reports it).
 */
export function checkConfidential(kubevirt: KubeVirtSummary, nodes: readonly AssessedNode[]): Finding {
  const missing = kubevirtMissing(kubevirt);
  if (missing !== null || kubevirt.state !== 'present') return { status: 'unknown', message: missing ?? '', evidence: { kubevirt: kubevirt.state } };
  const gates = (Object.keys(CONFIDENTIAL_GATES) as ConfidentialGate[]).filter((gate) => kubevirt.cr.featureGates.includes(gate));
  if (gates.length === 0) {
    return { status: 'pass', message: 'the KubeVirt CR enables no confidential-guest feature gate explicitly (WorkloadEncryptionSEV, WorkloadEncryptionTDX)', evidence: { featureGates: [] } };
  }
  const ready = nodes.filter((item) => item.readiness.state === 'ready');
  const failures: string[] = [];
  const counts: string[] = [];
  const capable: Record<string, number> = {};
  const unable: string[] = [];
  for (const gate of gates) {
    const kinds = CONFIDENTIAL_GATES[gate];
    for (const kind of kinds) capable[kind] = ready.filter((item) => item.report?.confidential?.[kind].available === true).length;
    const any = ready.filter((item) => kinds.some((kind) => item.report?.confidential?.[kind].available === true));
    if (any.length > 0) {
      counts.push(`${gate}: ${kinds.filter((kind) => (capable[kind] ?? 0) > 0).map((kind) => `${KIND_NAME[kind]} on ${plural(capable[kind] ?? 0, 'ready node')}`).join(', ')}`);
      continue;
    }
    const why = ready.map((item) => `${clip(item.node.name, 63)}: ${reasonFor(item, kinds)}`);
    unable.push(...why);
    const names = kinds.map((kind) => KIND_NAME[kind]).join('/');
    failures.push(
      ready.length === 0
        ? `${gate} is on but no node is ready, so no ${names} guest can start`
        : `${gate} is on but none of the ${plural(ready.length, 'ready node')} can run ${names} guests (${why.slice(0, 3).join('; ')}${why.length > 3 ? `; and ${why.length - 3} more` : ''})`,
    );
  }
  const disagreements = disagreementsOn(nodes, gates);
  const evidence = {
    featureGates: gates,
    capableReadyNodes: capable,
    readyNodes: ready.length,
    notCapable: unable.slice(0, MAX_LISTED).map((line) => clip(line, 300)),
    disagreements: disagreements.slice(0, MAX_LISTED).map((line) => clip(line, 300)),
  };
  const disagreeing = disagreements.length > 0 ? `; KubeVirt's labels disagree with virtgate on ${plural(disagreements.length, 'node')}: ${disagreements.slice(0, 2).join('; ')}${disagreements.length > 2 ? ` (+${disagreements.length - 2} more)` : ''}` : '';
  if (failures.length > 0) {
    return { status: 'fail', message: `${failures.join('; ')}: confidential VMs would stay Pending; fix the reasons on a node, or remove the gate${disagreeing}`, evidence };
  }
  if (disagreements.length > 0) return { status: 'warn', message: `${counts.join('; ')}${disagreeing}`, evidence };
  return { status: 'pass', message: counts.join('; '), evidence };
}

/**
 * Where KubeVirt's label and virtgate's reading differ, for the kinds of the enabled gates, on
 * nodes virt-handler runs on and whose report has a reading. KubeVirt reads libvirt's domain
 * capabilities; virtgate reads the kernel, opens /dev/sev and counts ASIDs.
 */
function disagreementsOn(nodes: readonly AssessedNode[], gates: readonly ConfidentialGate[]): string[] {
  const found: string[] = [];
  for (const item of nodes) {
    const confidential = item.report?.confidential;
    if (!confidential || item.node.labels[SCHEDULABLE_LABEL] === undefined) continue;
    for (const kind of gates.flatMap((gate) => CONFIDENTIAL_GATES[gate])) {
      const kubevirtSays = item.node.labels[KUBEVIRT_KIND_LABEL[kind]] === 'true';
      const reading = confidential[kind];
      if (kubevirtSays === reading.available) continue;
      const name = clip(item.node.name, 63);
      found.push(
        kubevirtSays
          ? `${name}: ${KUBEVIRT_KIND_LABEL[kind]}=true, but virtgate finds ${KIND_NAME[kind]} cannot start (${clip(reading.reason ?? '', 160)}); virtgate believes the kernel over libvirt's capabilities`
          : `${name}: virtgate finds ${KIND_NAME[kind]} can start, but KubeVirt has no ${KUBEVIRT_KIND_LABEL[kind]} label, so KubeVirt will not place ${KIND_NAME[kind]} VMs there (libvirt's domain capabilities do not offer it: check virt-handler's node-labeller log)`,
      );
    }
  }
  return found;
}

/** The rules this file adds to the gate (registered in ../rules.ts). */
export const confidentialRule = gateRule('kubevirt.confidential', ({ model, nodes }: ClusterInputs) => checkConfidential(model.kubevirt, nodes));
