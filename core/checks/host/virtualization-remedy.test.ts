import { describe, expect, it } from 'vitest';
import type { Platform } from './platform-class.ts';
import type { Observation } from '../observation.ts';
import type { CpuFacts } from './parse/cpuinfo.ts';
import { hardwareVirtualizationRemedy, kvmDriverRemedy, vendorKvmModule } from './virtualization-remedy.ts';

const vm = (fields: Partial<Platform>): Platform => ({ kind: 'virtual-machine', hypervisor: null, cloud: null, product: null, vendor: null, evidence: 'test', ...fields });
const cpu = (fields: Partial<CpuFacts>): Observation<CpuFacts> => ({
  state: 'ok',
  value: { arch: 'x86_64', vendor: 'intel', model: 'Xeon', processors: 2, vmx: false, svm: false, hypervisor: true, features: [], ...fields },
});

describe('remedies that fit the machine', () => {
  it.each<[string, Platform, string]>([
    ['bare metal: the firmware', { ...vm({}), kind: 'bare-metal' }, 'in the firmware (BIOS/UEFI) setup'],
    ['EC2: a nested-virtualization type or metal', vm({ cloud: 'aws', product: 'm5.large' }), 'C8i, M8i, R8i'],
    ['GCE: its flag', vm({ cloud: 'gcp' }), '--enable-nested-virtualization'],
    ['Azure: a size with nested virtualization', vm({ cloud: 'azure' }), 'Dv3/Ev3 and later'],
    ['VMware', vm({ hypervisor: 'VMware' }), 'vhv.enable'],
    ['VirtualBox', vm({ hypervisor: 'VirtualBox' }), '--nested-hw-virt on'],
    ['Hyper-V on premises', vm({ hypervisor: 'Hyper-V (Azure or on premises)' }), 'ExposeVirtualizationExtensions'],
    ['a KVM host', vm({ hypervisor: 'KVM/QEMU' }), 'nested=1'],
    ['an unnamed hypervisor', vm({}), 'enable nested virtualization on its hypervisor'],
  ])('%s', (_name, platform, words) => {
    const remedy = hardwareVirtualizationRemedy(platform);
    expect(remedy).toContain(words);
    if (platform.kind === 'virtual-machine') expect(remedy).not.toMatch(/firmware/);
  });

  it('names only the vendor module the CPU can load', () => {
    expect(vendorKvmModule(cpu({ vmx: true }))).toBe('kvm_intel');
    expect(vendorKvmModule(cpu({ vendor: 'amd', svm: true }))).toBe('kvm_amd');
    // An AMD CPU without svm: no module, so never "modprobe kvm_amd".
    expect(vendorKvmModule(cpu({ vendor: 'amd' }))).toBeUndefined();
    expect(kvmDriverRemedy(cpu({ vendor: 'amd' }), vm({ hypervisor: 'KVM/QEMU' }))).not.toMatch(/modprobe/);
    expect(kvmDriverRemedy(cpu({ vendor: 'amd', svm: true }), { ...vm({}), kind: 'bare-metal' })).toBe('Load kvm_amd (modprobe kvm_amd) and list it in /etc/modules-load.d/ so it loads at boot.');
  });
});
