/** The architectures cpuinfo parsing tells apart (here, not in cpuinfo.ts, so the import runs one way). */
export type CpuArch = 'x86_64' | 'arm64' | 'other';

/**
 * The cpuinfo flags a KVM guest can be given: instruction-set extensions and the mitigation
 * bits KubeVirt's host-model CPU passes through. A VM started with host-model on one node can
 * live-migrate only to a node that has every one of these that the first node has. Host-only
 * flags (power management, perf counters, virtualization controls, `hypervisor`) are left out:
 * they differ between identical servers and would strand nodes for nothing.
 */
const X86_GUEST_FEATURES = new Set([
  '3dnowprefetch', 'abm', 'adx', 'aes', 'amx_bf16', 'amx_fp16', 'amx_int8', 'amx_tile', 'arch_capabilities', 'avx', 'avx2',
  'avx512_4fmaps', 'avx512_4vnniw', 'avx512_bf16', 'avx512_bitalg', 'avx512_fp16', 'avx512_vbmi2', 'avx512_vnni', 'avx512_vp2intersect',
  'avx512_vpopcntdq', 'avx512bw', 'avx512cd', 'avx512dq', 'avx512er', 'avx512f', 'avx512ifma', 'avx512pf', 'avx512vbmi', 'avx512vl',
  'avx_ifma', 'avx_ne_convert', 'avx_vnni', 'avx_vnni_int8', 'bmi1', 'bmi2', 'cldemote', 'clflushopt', 'clwb', 'clzero', 'cmov', 'cx16', 'cx8',
  'enqcmd', 'erms', 'f16c', 'fma', 'fma4', 'fsgsbase', 'fsrm', 'fxsr', 'gfni', 'hle', 'ibpb', 'ibrs', 'invpcid', 'la57', 'lahf_lm', 'lm', 'md_clear',
  'misalignsse', 'mmx', 'mmxext', 'movbe', 'movdir64b', 'movdiri', 'mpx', 'nx', 'pclmulqdq', 'pcid', 'pdpe1gb', 'pku', 'pni', 'popcnt',
  'rdpid', 'rdrand', 'rdseed', 'rdtscp', 'rtm', 'serialize', 'sha512', 'sha_ni', 'sm3', 'sm4', 'smap', 'smep', 'ssbd', 'sse', 'sse2',
  'sse4_1', 'sse4_2', 'sse4a', 'ssse3', 'stibp', 'tbm', 'tsxldtrk', 'umip', 'vaes', 'virt_ssbd', 'vpclmulqdq', 'waitpkg', 'wbnoinvd',
  'xop', 'xsave', 'xsavec', 'xsaveopt', 'xsaves',
]);

/** A report carries at most this many features (arm64 lists ~60, x86 hosts ~90 of the set above). */
export const MAX_GUEST_FEATURES = 192;
/** Longer than any real feature name; guards the report. */
export const MAX_FEATURE_NAME = 32;

/**
 * The guest-relevant features from a cpuinfo flags line (x86) or Features line (arm64): sorted,
 * unique, bounded. On arm64 every listed feature is a user-visible ISA extension, so all count.
 */
export function guestFeatures(arch: CpuArch, listed: string): string[] {
  const names = new Set(listed.split(/\s+/).filter((name) => name !== '' && name.length <= MAX_FEATURE_NAME && /^[a-z0-9_.-]+$/.test(name)));
  const relevant = arch === 'x86_64' ? [...names].filter((name) => X86_GUEST_FEATURES.has(name)) : arch === 'arm64' ? [...names] : [];
  return relevant.sort().slice(0, MAX_GUEST_FEATURES);
}
