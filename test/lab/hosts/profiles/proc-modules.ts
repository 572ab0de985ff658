/** The fixture hosts' kernel modules and their /proc/modules text. */

export const X86_KVM_MODULES = (vendor: 'kvm_intel' | 'kvm_amd') => [vendor, 'kvm', 'irqbypass', 'vhost_net', 'vhost', 'vhost_iotlb', 'tap', 'tun'];
export const COMMON_BUILTIN = ['kernel', 'printk', 'pcie_aspm', 'sysrq', 'workqueue'];

export const MODULE_SIZES: Record<string, number> = {
  kvm_intel: 413696,
  kvm_amd: 208896,
  kvm_pvm: 131072,
  kvm: 1363968,
  irqbypass: 12288,
  vhost_net: 36864,
  vhost: 65536,
  vhost_iotlb: 16384,
  tap: 28672,
  tun: 73728,
};
export const MODULE_USERS: Record<string, string[]> = {
  kvm: ['kvm_intel', 'kvm_amd', 'kvm_pvm'],
  irqbypass: ['kvm'],
  vhost: ['vhost_net'],
  vhost_iotlb: ['vhost'],
  tap: ['vhost_net'],
  tun: ['vhost_net'],
};

/** proc/modules lines in the kernel's format: name size refcount users, state address. */
export function procModules(modules: string[]): string {
  return modules
    .map((name) => {
      const users = (MODULE_USERS[name] ?? []).filter((user) => modules.includes(user));
      const usedBy = users.length > 0 ? `${users.join(',')},` : '-';
      return `${name} ${MODULE_SIZES[name] ?? 16384} ${users.length} ${usedBy} Live 0x0000000000000000\n`;
    })
    .join('');
}
