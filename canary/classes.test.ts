import { describe, expect, it } from 'vitest';
import { nodeClassOf, slug } from './classes.ts';
import { reportView } from './report-view.ts';

/** A NodeValidation as the agent writes it, trimmed to what the class reads (and what makes a report readable). */
function report(status: Record<string, unknown>): unknown {
  return { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: 'worker-1' }, spec: { nodeName: 'worker-1' }, status };
}

const DELL_INTEL = {
  ready: true,
  tier: 'hardware',
  kernel: '6.12',
  heartbeatAt: '2026-12-07T12:00:00Z',
  cpuVendor: 'intel',
  inventory: { collected: true, cpu: { brand: 'Intel Xeon Platinum 8488C', sockets: 2, cores: 96, threads: 192 } },
  platform: { kind: 'bare-metal' },
};

describe('nodeClassOf', () => {
  it('names CPU vendor and model, tier, kernel minor and platform, readable and label-safe', () => {
    expect(nodeClassOf(reportView(report(DELL_INTEL))!)).toBe('intel/xeon-platinum-8488c/hardware/kernel-6.12/metal');
  });

  it('names the cloud of a virtual machine', () => {
    const ec2 = {
      ...DELL_INTEL,
      tier: 'emulation',
      cpuVendor: 'amd',
      inventory: { collected: true, cpu: { brand: 'AMD EPYC 7R13 Processor', sockets: 1, cores: 2, threads: 4 } },
      platform: { kind: 'virtual-machine', hypervisor: 'Amazon EC2 (Nitro)', cloud: 'aws' },
    };
    expect(nodeClassOf(reportView(report(ec2))!)).toBe('amd/epyc-7r13-processor/emulation/kernel-6.12/vm-aws');
  });

  it('says unknown for each part the report lacks, so an old agent\'s nodes still form a class', () => {
    expect(nodeClassOf(reportView(report({ ready: true }))!)).toBe('unknown/unknown/unknown/unknown/unknown');
    expect(nodeClassOf(reportView(report({ ...DELL_INTEL, kernel: 'garbage', platform: { kind: 'mainframe' } }))!)).toBe('intel/xeon-platinum-8488c/hardware/unknown/unknown');
    // The check's observed reading is diagnostics: the class never reads it.
    const observedOnly = { ...DELL_INTEL, platform: undefined, checks: [{ id: 'platform', status: 'pass', message: 'bare metal', observed: { kind: 'bare-metal' } }] };
    expect(nodeClassOf(reportView(report(observedOnly))!)).toBe('intel/xeon-platinum-8488c/hardware/kernel-6.12/unknown');
  });

  it('is the same for two nodes of one kind and differs when one part differs', () => {
    const a = nodeClassOf(reportView(report(DELL_INTEL))!);
    expect(nodeClassOf(reportView({ ...(report(DELL_INTEL) as object), metadata: { name: 'worker-2' } })!)).toBe(a);
    expect(nodeClassOf(reportView(report({ ...DELL_INTEL, kernel: '6.8' }))!)).not.toBe(a);
  });
});

describe('slug', () => {
  it('keeps letters, digits and dots, drops (R) and (TM), bounds the length', () => {
    expect(slug('Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz')).toBe('intel-xeon-cpu-e5-2680-v4-2.40ghz');
    expect(slug('  ')).toBe('unknown');
    expect(slug('x'.repeat(100))).toHaveLength(48);
  });
});
