/** /proc/cpuinfo of the fixture hosts' CPUs, in the kernel's format (data, no I/O). */

export const INTEL_FLAGS_BASE =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl';
export const INTEL_FLAGS_TAIL =
  'smx est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb cat_l3 cat_l2 cdp_l3 intel_ppin cdp_l2 ssbd mba ibrs ibpb stibp ibrs_enhanced tpr_shadow flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb intel_pt avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local split_lock_detect avx_vnni avx512_bf16 wbnoinvd dtherm ida arat pln pts hwp hwp_act_window hwp_epp hwp_pkg_req vnmi avx512vbmi umip pku ospke waitpkg avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg tme avx512_vpopcntdq la57 rdpid bus_lock_detect cldemote movdiri movdir64b enqcmd fsrm md_clear serialize tsxldtrk pconfig arch_lbr ibt amx_bf16 avx512_fp16 amx_tile amx_int8 flush_l1d arch_capabilities';
// What a KVM guest on a Xeon sees: no dts/acpi/monitor, and `hypervisor`.
export const INTEL_GUEST_FLAGS_BASE =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall nx pdpe1gb rdtscp lm constant_tsc arch_perfmon rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pdcm pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch cpuid_fault invpcid_single ssbd ibrs ibpb stibp ibrs_enhanced';
export const INTEL_GUEST_FLAGS_TAIL =
  'fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves wbnoinvd arat avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid fsrm md_clear arch_capabilities';
export const AMD_FLAGS =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl nonstop_tsc cpuid extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw ibs skinit wdt tce topoext perfctr_core perfctr_nb bpext perfctr_llc mwaitx cpb cat_l3 cdp_l3 hw_pstate ssbd mba perfmon_v2 ibrs ibpb stibp ibrs_enhanced vmmcall fsgsbase bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local avx512_bf16 clzero irperf xsaveerptr rdpru wbnoinvd amd_ppin cppc arat npt lbrv svm_lock nrip_save tsc_scale vmcb_clean flushbyasid decodeassists pausefilter pfthreshold avic v_vmsave_vmload vgif x2avic v_spec_ctrl vnmi avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq la57 rdpid overflow_recov succor smca fsrm flush_l1d';

export interface X86Cpu {
  vendorId: 'GenuineIntel' | 'AuthenticAMD';
  family: number;
  model: number;
  modelName: string;
  stepping: number;
  mhz: string;
  flags: string;
  vmxFlags?: string;
  bugs: string;
  cores: number;
}

export function x86Cpuinfo(cpu: X86Cpu): string {
  const blocks: string[] = [];
  for (let n = 0; n < cpu.cores; n += 1) {
    const lines = [
      `processor\t: ${n}`,
      `vendor_id\t: ${cpu.vendorId}`,
      `cpu family\t: ${cpu.family}`,
      `model\t\t: ${cpu.model}`,
      `model name\t: ${cpu.modelName}`,
      `stepping\t: ${cpu.stepping}`,
      `microcode\t: 0x2b000603`,
      `cpu MHz\t\t: ${cpu.mhz}`,
      `cache size\t: 107520 KB`,
      `physical id\t: 0`,
      `siblings\t: ${cpu.cores}`,
      `core id\t\t: ${n}`,
      `cpu cores\t: ${cpu.cores}`,
      `apicid\t\t: ${n * 2}`,
      `initial apicid\t: ${n * 2}`,
      `fpu\t\t: yes`,
      `fpu_exception\t: yes`,
      `cpuid level\t: 31`,
      `wp\t\t: yes`,
      `flags\t\t: ${cpu.flags}`,
      ...(cpu.vmxFlags ? [`vmx flags\t: ${cpu.vmxFlags}`] : []),
      `bugs\t\t: ${cpu.bugs}`,
      `bogomips\t: 4200.00`,
      `clflush size\t: 64`,
      `cache_alignment\t: 64`,
      `address sizes\t: 46 bits physical, 57 bits virtual`,
      `power management:`,
    ];
    blocks.push(`${lines.join('\n')}\n`);
  }
  return `${blocks.join('\n')}\n`;
}

export const INTEL_VMX_FLAGS =
  'vnmi preemption_timer posted_intr invvpid ept_x_only ept_ad ept_1gb flexpriority apicv tsc_offset vtpr mtf vapic ept vpid unrestricted_guest vapic_reg vid ple shadow_vmcs pml ept_mode_based_exec tsc_scaling usr_wait_pause notify_vm_exiting ipi_virt';

export const SAPPHIRE_RAPIDS = (flags: string, extra: Partial<X86Cpu> = {}): X86Cpu => ({
  vendorId: 'GenuineIntel',
  family: 6,
  model: 143,
  modelName: 'Intel(R) Xeon(R) Platinum 8488C',
  stepping: 8,
  mhz: '2400.000',
  flags,
  bugs: 'spectre_v1 spectre_v2 spec_store_bypass swapgs eibrs_pbrsb bhi',
  cores: 4,
  ...extra,
});

/** m5 instances: Cascade Lake Xeons. */
export const CASCADE_LAKE = (flags: string, extra: Partial<X86Cpu> = {}): X86Cpu =>
  SAPPHIRE_RAPIDS(flags, { model: 85, modelName: 'Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz', stepping: 7, mhz: '2500.000', ...extra });

export const INTEL_METAL_CPU = SAPPHIRE_RAPIDS(`${INTEL_FLAGS_BASE} vmx ${INTEL_FLAGS_TAIL}`, { vmxFlags: INTEL_VMX_FLAGS });
export const INTEL_NESTED_CPU = SAPPHIRE_RAPIDS(`${INTEL_GUEST_FLAGS_BASE.replace('ss ht', 'ss ht vmx')} ${INTEL_GUEST_FLAGS_TAIL}`, {
  vmxFlags: 'vnmi preemption_timer invvpid ept_x_only ept_ad ept_1gb flexpriority tsc_offset vtpr mtf vapic ept vpid unrestricted_guest shadow_vmcs',
  cores: 2,
});
export const INTEL_NO_VMX_CPU = SAPPHIRE_RAPIDS(`${INTEL_GUEST_FLAGS_BASE} ${INTEL_GUEST_FLAGS_TAIL}`, { cores: 2 });
export const AMD_GENOA_CPU: X86Cpu = {
  vendorId: 'AuthenticAMD',
  family: 25,
  model: 17,
  modelName: 'AMD EPYC 9654 96-Core Processor',
  stepping: 1,
  mhz: '2400.000',
  flags: AMD_FLAGS,
  bugs: 'sysret_ss_attrs spectre_v1 spectre_v2 spec_store_bypass srso',
  cores: 4,
};

/** Genoa with SME/SEV enabled in the firmware: the kernel then lists sme, sev, sev_es and sev_snp. */
export const AMD_GENOA_SEV_SNP_CPU: X86Cpu = { ...AMD_GENOA_CPU, flags: AMD_FLAGS.replace('smca fsrm', 'smca fsrm sme sev sev_es sev_snp') };
/** Sapphire Rapids with TDX private KeyIDs reserved by the firmware: the kernel sets tdx_host_platform. */
export const INTEL_TDX_CPU = SAPPHIRE_RAPIDS(`${INTEL_FLAGS_BASE} vmx ${INTEL_FLAGS_TAIL.replace('cdp_l3 ', 'cdp_l3 tdx_host_platform ')}`, { vmxFlags: INTEL_VMX_FLAGS });

export function arm64Cpuinfo(cores: number): string {
  const blocks: string[] = [];
  for (let n = 0; n < cores; n += 1) {
    blocks.push(
      [
        `processor\t: ${n}`,
        'BogoMIPS\t: 2100.00',
        'Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs paca pacg dcpodp svei8mm svebf16 i8mm bf16 dgh rng',
        'CPU implementer\t: 0x41',
        'CPU architecture: 8',
        'CPU variant\t: 0x1',
        'CPU part\t: 0xd40',
        'CPU revision\t: 1',
        '',
      ].join('\n'),
    );
  }
  return `${blocks.join('\n')}\n`;
}
