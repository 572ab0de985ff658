/**
 * kubevirt.confidential against the real API server with KubeVirt's own CRDs: a KubeVirt CR that
 * lists WorkloadEncryptionSEV in spec.configuration.developerConfiguration.featureGates, Nodes and
 * their NodeValidation reports (status.confidential, as the agent writes it), and `virtgate gate`
 * as a real process. The gate on without a capable node fails and names each node's reason; once
 * one ready node can run SEV-SNP it passes; where KubeVirt's labels disagree it warns. Expectations
 * written by hand from docs/gate.md.
 */
import { CoreV1Api, type KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateCheck } from '../../aggregator/documents/gate.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { runCli } from '../lab/cli.ts';
import { createKubeVirt, createValidatedNode, installKubeVirtCrds, removeOptionalCrds, resetCluster, updateReport } from '../lab/support/aggregator-cluster.ts';
import { installCrd } from '../lab/support/crds.ts';

const cp = useControlPlane();
let admin: KubeConfig;
const NOW = '2026-12-02T12:00:00Z';
const heartbeatAt = new Date(new Date(NOW).getTime() - 60_000);
const READY = { 'virtgate.io/ready': 'true' };

const off = (reason: string) => ({ available: false, reason });
const INTEL = { sev: off('the CPU shows no sev flag'), 'sev-es': off('the CPU shows no sev flag'), 'sev-snp': off('the CPU shows no sev flag'), tdx: off('kvm_intel.tdx=N') };
const AMD_SNP_OFF = { sev: off('kvm_amd.sev=N'), 'sev-es': off('kvm_amd.sev=N'), 'sev-snp': off('kvm_amd.sev=N'), tdx: off('the CPU shows no tdx_host_platform flag') };
const AMD_SNP = { sev: { available: true, asidsFree: 407 }, 'sev-es': { available: true, asidsFree: 98 }, 'sev-snp': { available: true, asidsFree: 98 }, tdx: off('the CPU shows no tdx_host_platform flag') };

async function confidentialCheck() {
  const run = await runCli(['gate', '--kubeconfig', cp.adminKubeconfig, '--now', NOW, '--json']);
  const result = JSON.parse(run.stdout) as { kind: string; checks: GateCheck[] };
  expect(result.kind, run.stderr).toBe('GateResult');
  const found = result.checks.find((entry) => entry.id === 'kubevirt.confidential');
  if (!found) throw new Error(`no kubevirt.confidential in ${run.stdout.slice(0, 200)}`);
  return { check: found, code: run.code };
}

beforeAll(async () => {
  admin = cp.adminConfig();
  await installCrd(admin);
  await removeOptionalCrds(admin);
  await resetCluster(admin);
  await installKubeVirtCrds(admin, { cdi: false });
  await createValidatedNode(admin, 'cc-intel', { node: { labels: READY }, report: { heartbeatAt, confidential: INTEL } });
  await createValidatedNode(admin, 'cc-amd', { node: { labels: READY }, report: { heartbeatAt, vendor: 'amd', confidential: AMD_SNP_OFF } });
  await createKubeVirt(admin, { name: 'kubevirt', version: 'v1.9.0', featureGates: ['WorkloadEncryptionSEV'], nodePlacement: { nodeSelector: READY } });
});

afterAll(async () => {
  await removeOptionalCrds(admin);
  await resetCluster(admin);
});

describe('kubevirt.confidential with KubeVirt CRs and Nodes carrying virtgate reports', () => {
  it('WorkloadEncryptionSEV on, no ready node can run SEV: fail (exit 1), each node named with its reason', async () => {
    const { check, code } = await confidentialCheck();
    expect(code).toBe(1);
    expect(check.status).toBe('fail');
    expect(check.message).toContain('WorkloadEncryptionSEV is on but none of the 2 ready nodes can run SEV-SNP/SEV-ES/SEV guests');
    expect(check.message).toContain('cc-amd: kvm_amd.sev=N');
    expect(check.message).toContain('cc-intel: the CPU shows no sev flag');
    expect(check.evidence).toMatchObject({ featureGates: ['WorkloadEncryptionSEV'], readyNodes: 2, capableReadyNodes: { sev: 0, 'sev-es': 0, 'sev-snp': 0 } });
  });

  it('the AMD node set up for SEV-SNP: pass, counting the ready nodes per kind', async () => {
    await updateReport(admin, 'cc-amd', { heartbeatAt, vendor: 'amd', confidential: AMD_SNP });
    const { check } = await confidentialCheck();
    expect(check).toMatchObject({ status: 'pass', message: 'WorkloadEncryptionSEV: SEV-SNP on 1 ready node, SEV-ES on 1 ready node, SEV on 1 ready node' });
  });

  it("KubeVirt's node-labeller silent on SEV-SNP where virtgate finds it: warn, naming the node", async () => {
    const labels = { 'kubevirt.io/schedulable': 'true', 'kubevirt.io/sev': 'true', 'kubevirt.io/sev-es': 'true' };
    await admin.makeApiClient(CoreV1Api).patchNode({ name: 'cc-amd', body: { metadata: { labels } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    const { check } = await confidentialCheck();
    expect(check.status).toBe('warn');
    expect(check.message).toContain("KubeVirt's labels disagree with virtgate on 1 node: cc-amd: virtgate finds SEV-SNP can start, but KubeVirt has no kubevirt.io/sev-snp label");
  });
});
