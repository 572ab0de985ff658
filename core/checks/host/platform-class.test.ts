/** How a platform is named in messages: the expectations are written by hand from the DMI strings each cloud and vendor sets. */
import { describe, expect, it } from 'vitest';
import type { DmiFacts } from './platform-class.ts';
import { classifyPlatform, describePlatform } from './platform-class.ts';

const cpu = { state: 'ok', value: { arch: 'x86_64', hypervisor: true } } as unknown as Parameters<typeof classifyPlatform>[1];
const metalCpu = { state: 'ok', value: { arch: 'x86_64', hypervisor: false } } as unknown as Parameters<typeof classifyPlatform>[1];
const dmi = (sysVendor: string, productName: string): DmiFacts => ({ sysVendor, productName, productVersion: null, biosVendor: null });
const facts = (d: DmiFacts) => ({ dmi: d, hypervisorType: null, deviceTree: null, containerMarker: null });

describe('describePlatform', () => {
  it('names a Google Compute Engine VM once: GCE sets sys_vendor "Google" and product_name "Google Compute Engine"', () => {
    const platform = classifyPlatform(facts(dmi('Google', 'Google Compute Engine')), cpu);
    expect(describePlatform(platform)).toBe('a virtual machine under Google Compute Engine');
    expect(platform.evidence).toBe('DMI: Google Compute Engine');
  });

  it('keeps the instance type of an EC2 VM beside the hypervisor', () => {
    const platform = classifyPlatform(facts(dmi('Amazon EC2', 'm5.large')), cpu);
    expect(describePlatform(platform)).toBe('a virtual machine under Amazon EC2 (Nitro) (Amazon EC2 m5.large)');
  });

  it('names a server by vendor and model, and a model that starts with its vendor once', () => {
    expect(describePlatform(classifyPlatform(facts(dmi('Dell Inc.', 'PowerEdge R760')), metalCpu))).toBe('bare metal (Dell Inc. PowerEdge R760)');
    expect(describePlatform(classifyPlatform(facts(dmi('Supermicro', 'Supermicro SYS-1029U-TRT')), metalCpu))).toBe('bare metal (Supermicro SYS-1029U-TRT)');
  });
});
