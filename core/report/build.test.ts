import { describe, expect, it } from 'vitest';
import { exampleFacts, type HostFacts } from '../checks/registry.ts';
import type { Verdict } from '../checks/verdict.ts';
import { buildReport } from './build.ts';
import { nodeValidationStatusSchema } from './schema.ts';

const verdict: Verdict = {
  tier: 'hardware',
  ready: true,
  conclusive: true,
  checks: [
    { id: 'dev.kvm', status: 'pass', message: '/dev/kvm opens' },
    { id: 'platform', status: 'pass', message: 'bare metal', observed: { kind: 'bare-metal', evidence: 'DMI names no hypervisor' } },
  ],
};
const taint = { policy: 'off', applied: false } as const;
const build = (facts: HostFacts) => buildReport({ verdict, effective: { ready: true, tier: 'hardware' }, facts, agentVersion: '1.2.3', taint });

describe('buildReport', () => {
  it('stores each fact once, in its declared field, and no raw facts', () => {
    const report = build(exampleFacts('/host'));
    // The example host (every family's example): a Dell PowerEdge with an Intel Xeon, kernel and devices healthy.
    expect(report).toMatchObject({ ready: true, tier: 'hardware', conclusive: true, kvm: 'pass', cpuVendor: 'intel', cpuFeatures: ['avx', 'sse2'], platform: { kind: 'bare-metal' }, agentVersion: '1.2.3', taint });
    expect(report).not.toHaveProperty('facts');
    // Every key is one the schema declares, and the whole is what the schema admits once the publisher's bookkeeping is added.
    const declared = Object.keys(nodeValidationStatusSchema.shape);
    expect(Object.keys(report).filter((key) => !declared.includes(key))).toEqual([]);
    const stamp = '2026-12-07T12:00:00Z';
    const status = JSON.parse(JSON.stringify({ ...report, conditions: [], observedGeneration: 1, probedAt: stamp, heartbeatAt: stamp, lastTransitionAt: stamp })) as unknown;
    expect(nodeValidationStatusSchema.safeParse(status).error?.issues ?? []).toEqual([]);
  });

  it('names the cloud and hypervisor of a VM, and leaves out the CPU fields when cpuinfo was not read', () => {
    const ec2: HostFacts = {
      ...exampleFacts('/host'),
      platform: { dmi: { sysVendor: 'Amazon EC2', productName: 'm5.large', productVersion: null, biosVendor: 'Amazon EC2' }, hypervisorType: null, deviceTree: null, containerMarker: null },
      cpu: { state: 'unknown', reason: 'proc/cpuinfo: EACCES' },
    };
    const report = build(ec2);
    expect(report.platform).toEqual({ kind: 'virtual-machine', cloud: 'aws', hypervisor: 'Amazon EC2 (Nitro)' });
    expect(build({ ...ec2, platform: { dmi: null, hypervisorType: null, deviceTree: null, containerMarker: null } }).platform).toEqual({ kind: 'unknown' });
    expect(report).not.toHaveProperty('cpuVendor');
    expect(report).not.toHaveProperty('cpuFeatures');
  });
});
