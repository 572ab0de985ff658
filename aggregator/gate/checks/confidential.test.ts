import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { healthyCluster, listed, NOW, rawKubeVirt, rawNode, rawReport } from '../../../test/lab/aggregator/cluster-fixtures.ts';
import { DEFAULT_GATE_CONFIG } from '../../model/config.ts';
import type { ClusterSnapshot } from '../../model/snapshot.ts';
import { DEFAULT_VERSIONS_FILE } from '../../versions/load.ts';
import { parseVersionData } from '../../versions/parse.ts';
import { gate } from '../gate.ts';

const DATA = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');
const placed = { nodeSelector: { 'virtgate.io/ready': 'true' } };

const off = (reason: string) => ({ available: false, reason });
const INTEL_NO_TDX = { sev: off('the CPU shows no sev flag'), 'sev-es': off('the CPU shows no sev flag'), 'sev-snp': off('the CPU shows no sev flag'), tdx: off('kvm_intel.tdx=N') };
const SNP_READY = { sev: { available: true, asidsFree: 407 }, 'sev-es': { available: true, asidsFree: 98 }, 'sev-snp': { available: true, asidsFree: 98 }, tdx: off('the CPU shows no tdx_host_platform flag') };

function confidentialCheck(featureGates: string[] | undefined, nodes: ReadonlyArray<{ name: string; confidential?: unknown; labels?: Readonly<Record<string, string | undefined>>; ready?: boolean }>) {
  const snapshot: ClusterSnapshot = healthyCluster({
    nodes: nodes.map((node) => rawNode(node.name, { labels: { 'virtgate.io/ready': String(node.ready ?? true), ...(node.labels as Record<string, string>) } })),
    nodeValidations: nodes.map((node) => rawReport(node.name, { ready: node.ready ?? true, confidential: node.confidential })),
    kubevirt: listed(rawKubeVirt({ nodePlacement: placed, ...(featureGates ? { featureGates } : {}) })),
  });
  const found = gate(snapshot, DATA, DEFAULT_GATE_CONFIG, NOW).checks.find((check) => check.id === 'kubevirt.confidential');
  if (!found) throw new Error('no kubevirt.confidential');
  return found;
}

describe('kubevirt.confidential', () => {
  it('passes when no confidential feature gate is listed (WorkloadEncryptionSEV is Beta, on by default, but nobody asked)', () => {
    expect(confidentialCheck(undefined, [{ name: 'a', confidential: INTEL_NO_TDX }])).toMatchObject({ status: 'pass', evidence: { featureGates: [] } });
  });

  it('fails WorkloadEncryptionSEV with no ready node able to run SEV, naming each node and its reason', () => {
    const result = confidentialCheck(['WorkloadEncryptionSEV'], [{ name: 'a', confidential: INTEL_NO_TDX }, { name: 'b' }]);
    expect(result.status).toBe('fail');
    expect(result.message).toContain('WorkloadEncryptionSEV is on but none of the 2 ready nodes can run SEV-SNP/SEV-ES/SEV guests');
    expect(result.message).toContain('a: the CPU shows no sev flag');
    expect(result.message).toContain('b: its report has no confidential-guest reading');
  });

  it('a not-ready node that could run SEV does not count', () => {
    expect(confidentialCheck(['WorkloadEncryptionSEV'], [{ name: 'a', confidential: SNP_READY, ready: false }, { name: 'b', confidential: INTEL_NO_TDX }]).status).toBe('fail');
  });

  it('passes WorkloadEncryptionSEV with a capable ready node, counting each kind', () => {
    const result = confidentialCheck(['WorkloadEncryptionSEV'], [{ name: 'a', confidential: SNP_READY }, { name: 'b', confidential: INTEL_NO_TDX }]);
    expect(result).toMatchObject({ status: 'pass', message: 'WorkloadEncryptionSEV: SEV-SNP on 1 ready node, SEV-ES on 1 ready node, SEV on 1 ready node' });
  });

  it('fails only the gate no node can serve: SEV served, TDX not', () => {
    const result = confidentialCheck(['WorkloadEncryptionSEV', 'WorkloadEncryptionTDX'], [{ name: 'a', confidential: SNP_READY }]);
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/^WorkloadEncryptionTDX is on but none of the 1 ready node can run TDX guests \(a: the CPU shows no tdx_host_platform flag\)/);
  });

  it("warns where KubeVirt's labels disagree with virtgate, on nodes virt-handler runs on", () => {
    const nodes = [
      { name: 'a', confidential: SNP_READY, labels: { 'kubevirt.io/schedulable': 'true', 'kubevirt.io/sev': 'true', 'kubevirt.io/sev-es': 'true' } },
      { name: 'b', confidential: { ...SNP_READY, 'sev-snp': off('kvm_amd.sev_snp=N') }, labels: { 'kubevirt.io/schedulable': 'true', 'kubevirt.io/sev': 'true', 'kubevirt.io/sev-es': 'true', 'kubevirt.io/sev-snp': 'true' } },
      // virt-handler not there: KubeVirt's silence says nothing.
      { name: 'c', confidential: SNP_READY },
    ];
    const result = confidentialCheck(['WorkloadEncryptionSEV'], nodes);
    expect(result.status).toBe('warn');
    expect(result.evidence.disagreements).toEqual([
      "a: virtgate finds SEV-SNP can start, but KubeVirt has no kubevirt.io/sev-snp label, so KubeVirt will not place SEV-SNP VMs there (libvirt's domain capabilities do not offer it: check virt-handler's node-labeller log)",
      "b: kubevirt.io/sev-snp=true, but virtgate finds SEV-SNP cannot start (kvm_amd.sev_snp=N); virtgate believes the kernel over libvirt's capabilities",
    ]);
  });

  it('is unknown without KubeVirt', () => {
    const snapshot = healthyCluster({ kubevirt: { state: 'crd-absent' } });
    expect(gate(snapshot, DATA, DEFAULT_GATE_CONFIG, NOW).checks.find((check) => check.id === 'kubevirt.confidential')?.status).toBe('unknown');
  });
});
