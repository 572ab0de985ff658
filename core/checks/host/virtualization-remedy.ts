import type { Observation } from '../observation.ts';
import type { CpuFacts } from './parse/cpuinfo.ts';
import type { Platform } from './platform-class.ts';

/**
 * What to do when the CPU shows no VT-x/AMD-V, in the words that fit the machine: on bare metal
 * the firmware setting; on a virtual machine nested virtualization on its hypervisor, with the
 * cloud's or hypervisor's own switch where virtgate knows which one it is. Pure.
 */
export function hardwareVirtualizationRemedy(platform: Platform): string {
  if (platform.kind === 'bare-metal') {
    return 'Enable Intel VT-x or AMD-V (SVM) in the firmware (BIOS/UEFI) setup and reboot. Without it only KubeVirt useEmulation works.';
  }
  if (platform.kind === 'unknown') {
    return 'On bare metal, enable VT-x/AMD-V in the firmware setup; on a virtual machine, enable nested virtualization on its hypervisor. Without it only KubeVirt useEmulation works.';
  }
  return `This is a virtual machine: ${nestedRemedy(platform)} Without it only KubeVirt useEmulation works.`;
}

/** How to expose VT-x/AMD-V to this VM: the cloud's or hypervisor's own switch, else the general advice. */
function nestedRemedy(platform: Platform, arch?: string): string {
  const product = platform.product;
  switch (platform.cloud) {
    case 'aws': {
      const family = product?.split('.')[0];
      const metal = family && product ? ` (e.g. ${family}.metal instead of ${product}, where the family has one)` : '';
      if (arch === 'arm64') return `Graviton virtual instances expose no virtualization to their guests: use a *.metal instance type${metal}.`;
      return `EC2 passes VT-x to virtual instances only on the types that support nested virtualization (C8i, M8i, R8i, launched with nested virtualization enabled); otherwise use a *.metal instance type${metal}.`;
    }
    case 'gcp':
      return 'enable nested virtualization on the instance (gcloud compute instances create … --enable-nested-virtualization, on an Intel machine type), or use a bare-metal machine type.';
    case 'azure':
      return 'choose a size that supports nested virtualization (Dv3/Ev3 and later), or use bare-metal nodes.';
    default:
      break;
  }
  const hypervisor = platform.hypervisor ?? '';
  if (/VMware/.test(hypervisor)) return 'enable "Expose hardware assisted virtualization to the guest OS" for this VM in vSphere (vhv.enable = "TRUE").';
  if (/VirtualBox/.test(hypervisor)) return 'enable nested VT-x/AMD-V for this VM (VBoxManage modifyvm <vm> --nested-hw-virt on).';
  if (/Hyper-V/.test(hypervisor)) return 'expose virtualization extensions to this VM (Set-VMProcessor -VMName <vm> -ExposeVirtualizationExtensions $true).';
  if (/KVM|QEMU/.test(hypervisor)) return 'enable nested virtualization on the KVM host (kvm_intel nested=1 or kvm_amd nested=1) and give this VM the host CPU (libvirt <cpu mode="host-passthrough"/>, QEMU -cpu host).';
  return 'enable nested virtualization on its hypervisor (expose VT-x/AMD-V to this VM), or use a bare-metal node.';
}

/** The vendor KVM module this CPU can use: kvm_intel with vmx, kvm_amd with svm, none otherwise (never a module the CPU cannot load). */
export function vendorKvmModule(cpu: Observation<CpuFacts>): 'kvm_intel' | 'kvm_amd' | undefined {
  if (cpu.state !== 'ok' || cpu.value.arch !== 'x86_64') return undefined;
  if (cpu.value.vmx) return 'kvm_intel';
  if (cpu.value.svm) return 'kvm_amd';
  return undefined;
}

/** True when the CPU is x86 and shows neither vmx nor svm: no vendor KVM module can load. */
export function lacksHardwareVirtualization(cpu: Observation<CpuFacts>): boolean {
  return cpu.state === 'ok' && cpu.value.arch === 'x86_64' && !cpu.value.vmx && !cpu.value.svm;
}

/** What to do when /dev/kvm is absent or its driver is not loaded, for this CPU and platform. */
export function kvmDriverRemedy(cpu: Observation<CpuFacts>, platform: Platform): string {
  if (lacksHardwareVirtualization(cpu)) return hardwareVirtualizationRemedy(platform);
  const module = vendorKvmModule(cpu);
  if (module) return `Load ${module} (modprobe ${module}) and list it in /etc/modules-load.d/ so it loads at boot.`;
  if (cpu.state === 'ok' && cpu.value.arch === 'arm64') {
    return platform.kind === 'virtual-machine'
      ? `This is an arm64 virtual machine: ${nestedRemedy(platform, 'arm64')}`
      : 'arm64 KVM is built into the kernel: boot a kernel with CONFIG_KVM that starts at EL2 (firmware must hand over at EL2).';
  }
  return 'Load the KVM module for this CPU (modprobe kvm_intel or kvm_amd).';
}
