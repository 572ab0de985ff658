import type { CheckId, HostFacts } from '../../core/checks/registry.ts';
import { CONFIDENTIAL_KINDS, confidentialSummary } from '../../core/checks/families/confidential.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import { kernelMinor } from '../../core/report/build.ts';
import type { NodeKeys } from '../../core/kube/names.ts';
import type { EffectiveVerdict } from './verdict-hold.ts';

/**
 * The labels virtgate wants on its node. A label whose source check ended in `error` keeps its
 * current value (or stays absent): the agent never writes a guess.
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
  const fromCheck = (key: string, id: CheckId) => {
    const status = verdict.checks.find((check) => check.id === id)?.status;
    if (status === 'pass') labels[key] = 'true';
    else if (status === 'fail' || status === 'warn') labels[key] = 'false';
    else keep(key);
  };

  if (effective.undecided) {
    keep(keys.labels.ready);
    keep(keys.labels.tier);
  } else {
    labels[keys.labels.ready] = String(effective.ready);
    labels[keys.labels.tier] = effective.tier;
  }
  fromCheck(keys.labels.kvm, 'dev.kvm');
  fromCheck(keys.labels.tun, 'dev.tun');
  fromCheck(keys.labels.vhostNet, 'dev.vhost-net');

  if (facts.cpu.state === 'ok') {
    labels[keys.labels.cpuVendor] = facts.cpu.value.vendor;
    labels[keys.labels.nested] = String(facts.cpu.value.hypervisor);
  } else {
    keep(keys.labels.cpuVendor);
    keep(keys.labels.nested);
  }
  const kernel = kernelMinor(facts);
  if (kernel) labels[keys.labels.kernel] = kernel;
  else keep(keys.labels.kernel);
  Object.assign(labels, confidentialLabels(keys, facts, current));
  return labels;
}

/**
 * One label per confidential kind, as KubeVirt labels them (`<prefix>/sev-snp` beside
 * `kubevirt.io/sev-snp`), so a VM's nodeSelector names the kind it needs: `true` where a guest of
 * it can start, `false` where the CPU has the vendor's feature (sev, tdx_host_platform) but the kind
 * cannot start (a parameter off, no ASIDs left), and no label on CPUs without the feature at all.
 * When the check could not tell, the current values stay.
 */
export function confidentialLabels(keys: NodeKeys, facts: HostFacts, current: Readonly<Record<string, string>>): Record<string, string> {
  const labels: Record<string, string> = {};
  const summary = confidentialSummary(facts.confidential);
  for (const kind of CONFIDENTIAL_KINDS) {
    const key = keys.labels.confidential[kind];
    if (!summary) {
      if (current[key] !== undefined) labels[key] = current[key];
      continue;
    }
    const flags = facts.confidential.state === 'ok' ? facts.confidential.value.flags : undefined;
    const vendorHasIt = kind === 'tdx' ? flags?.tdxHostPlatform : flags?.sev;
    if (summary[kind].available) labels[key] = 'true';
    else if (vendorHasIt) labels[key] = 'false';
  }
  return labels;
}
