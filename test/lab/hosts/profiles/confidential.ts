/**
 * The confidential-guest files of the SEV-SNP and TDX fixture hosts, as their kernels show them
 * (data, no I/O). Written from the kernel's interfaces, not from virtgate's output:
 *  - kvm_amd's `sev`, `sev_es`, `sev_snp` and kvm_intel's `tdx` are bool parameters, shown as Y/N;
 *  - proc/misc lists `<minor> <name>` for each misc driver; ccp registers `sev` with a dynamic
 *    minor. The fixture's dev/sev is made on minor 200 (tun's, which every test machine serves, as
 *    the suite needs real tun), and its proc/misc names that minor `sev`: what is real is open();
 *  - the misc cgroup's root `misc.capacity` and `misc.current` (Documentation/admin-guide/cgroup-v2.rst,
 *    "Misc"), keys `sev` and `sev_es`. The firmware splits the ASIDs: 1..99 for SEV-ES and SEV-SNP
 *    guests ("minimum SEV non-ES ASID" 100), 100..509 for plain SEV.
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
  'proc/misc': ' 232 kvm\n 238 vhost-net\n 200 tun\n 237 loop-control\n 229 fuse\n',
};
