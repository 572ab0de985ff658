import { describe, expect, it } from 'vitest';
import { servedMiscMinor, servedMiscMinors, unservedMiscMinor } from '../lab/hosts/misc-devices.ts';

// /proc/misc as a kernel with kvm_pvm loaded printed it.
const WITH_KVM = ' 234 btrfs-control\n259 cpu_dma_latency\n200 tun\n237 loop-control\n232 kvm\n183 hw_random\n';

describe('misc device numbers from /proc/misc', () => {
  it('reads the served minors by name', () => {
    expect(servedMiscMinors(WITH_KVM)).toEqual(new Map([['btrfs-control', 234], ['cpu_dma_latency', 259], ['tun', 200], ['loop-control', 237], ['kvm', 232], ['hw_random', 183]]));
    expect(servedMiscMinor('kvm', WITH_KVM)).toBe(232);
    expect(servedMiscMinor('kvm', '200 tun\n')).toBeUndefined();
  });

  it('picks a local-use minor (240-254) that no driver serves', () => {
    expect(unservedMiscMinor(WITH_KVM)).toBe(254);
    expect(unservedMiscMinor(`${WITH_KVM}254 local-a\n253 local-b\n`)).toBe(252);
  });

  it('refuses when every local-use minor is taken', () => {
    const all = Array.from({ length: 15 }, (_, n) => `${240 + n} local${n}`).join('\n');
    expect(() => unservedMiscMinor(all)).toThrow(/every misc minor in 240-254 is served/);
  });
});
