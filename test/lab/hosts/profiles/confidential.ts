/**
 * The confidential-guest files of the SEV-SNP and TDX fixture hosts, as their kernels show them
 * (data, no I/O). Written from the kernel's interfaces, not from virtgate's output:
 *  - kvm_amd's `sev`, `sev_es`, `sev_snp` (arch/x86/kvm/svm/sev.c, module_param_named(..., bool,
 *    0444)) and kvm_intel's `tdx` (arch/x86/kvm/vmx/tdx.c, the same) are bool parameters, which
 *    sysfs shows as Y/N. sev_hardware_setup() writes back what it could bring up (sev_enabled =
 *    sev_supported, and so on), and tdx_bringup() clears enable_tdx when the TDX module does not
 *    initialise: Y after the module loaded means supported, not only asked for;
 *  - proc/misc lists `<minor> <name>` for each misc driver; ccp registers `sev` with a dynamic
 *    minor. The fixture's dev/sev is made on minor 200 (tun's, which every test machine serves, as
 *    the suite needs real tun), and its proc/misc names that minor `sev`: what is real is open();
 *  - the misc cgroup's root `misc.capacity` and `misc.current` (Documentation/admin-guide/cgroup-v2.rst,
 *    "Misc"), keys `sev` and `sev_es` (kernel/cgroup/misc.c misc_res_name; `tdx` since 6.16, "KVM:
 *    TDX: Register TDX host key IDs to cgroup misc controller"). Both files list only resources with
 *    a capacity (or a usage); misc.current is shown on the root since 6.5 ("cgroup/misc: Expose
 *    misc.current on cgroup v2 root"), so both 6.14 and 6.17 hosts have it. The SEV ASIDs come from
 *    CPUID 0x8000001F: ECX, the number of encrypted guests (here 509), and EDX, the minimum SEV
 *    enabled, SEV-ES disabled ASID (here 100). sev_hardware_setup() gives the misc cgroup
 *    max - min + 1 = 410 SEV ASIDs and min - 1 = 99 SEV-ES ASIDs, which SEV-SNP guests share
 *    ("SEV-SNP supported: %u ASIDs", min_sev_asid - 1);
 *  - TDX: the KeyIDs the firmware reserved (Documentation/arch/x86/tdx.rst's example: "private
 *    KeyID range: [16, 64)", 48), one kept as the TDX module's global KeyID, 47 for guests: the
 *    misc cgroup's `tdx` capacity, which KubeVirt v1.9.0 reads as the number of TDX VMs it offers
 *    (virt-handler device_controller.go updateTdxDevice, cgroup.GetMiscCapacity("tdx")).
 */

/** The misc minor the fixture's dev/sev is made on (see above). */
export const SEV_STAND_IN_MINOR = 200;

export const SEV_SNP_FILES: Record<string, string> = {
  'sys/module/kvm_amd/parameters/sev': 'Y\n',
  'sys/module/kvm_amd/parameters/sev_es': 'Y\n',
  'sys/module/kvm_amd/parameters/sev_snp': 'Y\n',
  'proc/misc': ` 232 kvm\n 238 vhost-net\n ${SEV_STAND_IN_MINOR} sev\n 237 loop-control\n 229 fuse\n`,
  'sys/fs/cgroup/misc.capacity': 'sev 410\nsev_es 99\n',
  // Three SEV guests and one SEV-SNP guest running.
  'sys/fs/cgroup/misc.current': 'sev 3\nsev_es 1\n',
};

export const TDX_FILES: Record<string, string> = {
  'sys/module/kvm_intel/parameters/tdx': 'Y\n',
  // Only `tdx` has a capacity on this Intel host (the SEV resources exist in the kernel but hold 0, so neither file lists them).
  'sys/fs/cgroup/misc.capacity': 'tdx 47\n',
  'sys/fs/cgroup/misc.current': 'tdx 0\n',
  'proc/misc': ' 232 kvm\n 238 vhost-net\n 200 tun\n 237 loop-control\n 229 fuse\n',
};

/**
 * Two variants of the TDX host, as `buildHost(dir, 'tdx-metal', { files })` overrides, on which
 * KubeVirt v1.9.0 cannot start a TDX VM although kvm_intel.tdx=Y:
 *  - no `tdx` key: the root misc cgroup as a kernel whose KVM does not give its KeyIDs to the misc
 *    cgroup shows it on an Intel host (no resource with a capacity, so both files are empty).
 *    virt-handler then offers no devices.kubevirt.io/tdx at all;
 *  - every KeyID in use: 47 TDX guests running. virt-handler still offers 47 devices (it reads
 *    only misc.capacity), but KVM charges each new TD one `tdx` unit and refuses the 48th.
 */
export const TDX_WITHOUT_MISC_KEY: Record<string, string> = {
  'sys/fs/cgroup/misc.capacity': '',
  'sys/fs/cgroup/misc.current': '',
};

export const TDX_KEYIDS_ALL_USED: Record<string, string> = {
  'sys/fs/cgroup/misc.capacity': 'tdx 47\n',
  'sys/fs/cgroup/misc.current': 'tdx 47\n',
};
