import { describe, expect, it } from 'vitest';
import { guestFeatures, MAX_GUEST_FEATURES } from './guest-features.ts';

describe('guestFeatures', () => {
  it('x86: keeps instruction-set extensions and mitigation bits, drops host-only flags, sorts, dedups', () => {
    expect(guestFeatures('x86_64', 'sse2 hypervisor vmx avx2 aperfmperf ept md_clear avx2 constant_tsc aes')).toEqual(['aes', 'avx2', 'md_clear', 'sse2']);
  });
  it('arm64: every Features entry counts', () => {
    expect(guestFeatures('arm64', 'fp asimd sve2 atomics')).toEqual(['asimd', 'atomics', 'fp', 'sve2']);
  });
  it('is bounded: malformed or overlong names are dropped and the list is capped', () => {
    expect(guestFeatures('arm64', `ok ${'x'.repeat(40)} Bad$ <b>`)).toEqual(['ok']);
    const many = Array.from({ length: 500 }, (_, n) => `f${n}`).join(' ');
    expect(guestFeatures('arm64', many)).toHaveLength(MAX_GUEST_FEATURES);
    expect(guestFeatures('other', 'avx2')).toEqual([]);
  });
});
