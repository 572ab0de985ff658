import type { ReportView } from './report-view.ts';

/**
 * A node's class: the nodes on which one VM boot says as much as on any other. CPU vendor and
 * model (a different CPU can mean a different KVM path and different CPU features), virtgate's
 * tier, the kernel's major.minor (KVM and vhost live in the kernel) and the platform (bare metal,
 * or which cloud or hypervisor). Written as a readable string that is also a Prometheus label
 * value and stable across runs: `intel/xeon-platinum-8488c/hardware/kernel-6.12/metal`.
 */

const UNKNOWN = 'unknown';
const MAX_PART = 48;

/** Lowercase words joined by `-`: `Intel(R) Xeon(R) Gold 6338` → `intel-xeon-gold-6338`. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/\((r|tm)\)/g, ' ')
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, MAX_PART)
      .replace(/[-.]+$/, '') || UNKNOWN
  );
}

/** The CPU model without the vendor's name, which the class already starts with. */
function modelOf(brand: string | undefined, vendor: string): string {
  if (brand === undefined) return UNKNOWN;
  const words = slug(brand).split('-');
  const vendorWords = vendor === 'amd' ? ['amd'] : vendor === 'intel' ? ['intel'] : [];
  const rest = vendorWords.includes(words[0] ?? '') ? words.slice(1) : words;
  return rest.join('-') || UNKNOWN;
}

function platformOf(platform: ReportView['platform']): string {
  if (platform === undefined) return UNKNOWN;
  if (platform.kind === 'bare-metal') return 'metal';
  if (platform.kind === 'virtual-machine') return `vm-${slug(platform.cloud ?? platform.hypervisor ?? UNKNOWN)}`;
  return UNKNOWN;
}

/** The class of the node a report describes. */
export function nodeClassOf(report: ReportView): string {
  const vendor = report.cpuVendor !== undefined ? slug(report.cpuVendor) : UNKNOWN;
  return [vendor, modelOf(report.cpuBrand, vendor), report.tier ?? UNKNOWN, report.kernel !== undefined ? `kernel-${report.kernel}` : UNKNOWN, platformOf(report.platform)].join('/');
}
