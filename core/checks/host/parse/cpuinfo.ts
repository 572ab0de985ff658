import type { Observation } from '../../observation.ts';
import { type CpuArch, guestFeatures } from './guest-features.ts';

export type { CpuArch };
export const CPU_VENDORS = ['intel', 'amd', 'hygon', 'arm', 'other'] as const;
export type CpuVendor = (typeof CPU_VENDORS)[number];

export interface CpuFacts {
  arch: CpuArch;
  vendor: CpuVendor;
  model: string;
  processors: number;
  vmx: boolean;
  svm: boolean;
  /** The kernel runs under a hypervisor: this host is itself a VM. */
  hypervisor: boolean;
  /** The guest-relevant CPU features, sorted (parse/guest-features.ts): what live migration compares. */
  features: string[];
}

const X86_VENDORS: Record<string, CpuVendor> = {
  GenuineIntel: 'intel',
  AuthenticAMD: 'amd',
  HygonGenuine: 'hygon',
};

/**
 * Parses proc/cpuinfo. The architecture comes from what the file shows, not from the machine
 * running virtgate: x86 lists `vendor_id` and `flags`, arm64 lists `CPU implementer` and `Features`.
 */
export function parseCpuinfo(text: string): Observation<CpuFacts> {
  let processors = 0;
  let vendorId: string | undefined;
  let model: string | undefined;
  let flags: string | undefined;
  let armImplementer: string | undefined;
  let armFeatures: string | undefined;

  const lines = text.split('\n');
  // procfs ends every line with a newline; text that does not was cut, and its last line may be partial.
  const lastLineCut = !text.endsWith('\n');
  let flagsCut = false;

  for (const [index, line] of lines.entries()) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    switch (key) {
      case 'processor':
        processors += 1;
        break;
      case 'vendor_id':
        vendorId ??= value;
        break;
      case 'model name':
        model ??= value;
        break;
      case 'flags':
        if (flags === undefined) {
          flags = value;
          flagsCut = lastLineCut && index === lines.length - 1;
        }
        break;
      case 'CPU implementer':
        armImplementer ??= value;
        break;
      case 'Features':
        armFeatures ??= value;
        break;
    }
  }

  if (flags !== undefined || vendorId !== undefined) {
    if (flags === undefined) {
      return { state: 'unknown', reason: 'proc/cpuinfo names an x86 vendor but has no flags line; it looks truncated' };
    }
    // A cut flags line could have lost vmx/svm: saying "absent" would turn a read problem into a fail.
    if (flagsCut) return { state: 'unknown', reason: 'proc/cpuinfo ends inside the flags line; it looks truncated' };
    const set = new Set(flags.split(/\s+/));
    return {
      state: 'ok',
      value: {
        arch: 'x86_64',
        vendor: (vendorId && X86_VENDORS[vendorId]) || 'other',
        model: model ?? '',
        processors: Math.max(processors, 1),
        vmx: set.has('vmx'),
        svm: set.has('svm'),
        hypervisor: set.has('hypervisor'),
        features: guestFeatures('x86_64', flags),
      },
    };
  }
  if (armImplementer !== undefined || armFeatures !== undefined) {
    return {
      state: 'ok',
      value: {
        arch: 'arm64',
        vendor: 'arm',
        model: model ?? `implementer ${armImplementer ?? 'unknown'}`,
        processors: Math.max(processors, 1),
        vmx: false,
        svm: false,
        // arm64 cpuinfo does not say whether the kernel runs under a hypervisor.
        hypervisor: false,
        features: guestFeatures('arm64', armFeatures ?? ''),
      },
    };
  }
  return {
    state: 'unknown',
    reason:
      processors > 0
        ? 'proc/cpuinfo lists processors but neither x86 flags nor arm64 features; the architecture is not supported'
        : 'proc/cpuinfo has no processor entries; it is empty, truncated or not a cpuinfo file',
  };
}
