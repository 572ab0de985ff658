/**
 * The inventory's fields from the kernel's own files, as text (pure: read-host.ts does the I/O).
 * The names follow what systeminformation printed before (brand "Intel Xeon® Gold 6338",
 * model "Computer" when the firmware names none), so an agent's report keeps its values.
 */

export interface CpuTopology {
  sockets: number;
  cores: number;
  threads: number;
}

export interface CpuinfoReading extends CpuTopology {
  /** The first processor's `model name`, when the file has one (x86 does, arm64 does not). */
  modelName?: string;
  /** Whether every processor block names its socket and core (`physical id`, `core id`). */
  hasTopology: boolean;
  /** The CPU says it runs under a hypervisor (x86 flag `hypervisor`). */
  hypervisor: boolean;
}

const field = (block: string, key: string): string | undefined => new RegExp(`^${key}\\s*:\\s*(.*)$`, 'm').exec(block)?.[1]?.trim();

/** proc/cpuinfo: one block per logical processor. */
export function readCpuinfo(text: string): CpuinfoReading {
  const blocks = text.split(/\n\s*\n/).filter((block) => /^processor\s*:/m.test(block));
  const hasTopology = blocks.length > 0 && blocks.every((block) => field(block, 'physical id') !== undefined && field(block, 'core id') !== undefined);
  const sockets = new Set(blocks.map((block) => field(block, 'physical id') ?? '0'));
  const cores = new Set(blocks.map((block) => `${field(block, 'physical id') ?? '0'}/${field(block, 'core id') ?? field(block, 'processor')}`));
  const first = blocks[0] ?? '';
  const modelName = field(first, 'model name');
  const flags = field(first, 'flags') ?? '';
  return {
    threads: blocks.length,
    sockets: sockets.size,
    cores: cores.size,
    hasTopology,
    hypervisor: flags.split(/\s+/).includes('hypervisor'),
    ...(modelName ? { modelName } : {}),
  };
}

/** Sockets and cores from sysfs topology (`physical_package_id`, `core_id` per logical CPU), where cpuinfo does not say (arm64). */
export function topologyOf(cpus: ReadonlyArray<{ packageId: string; coreId: string }>): CpuTopology {
  return {
    threads: cpus.length,
    sockets: new Set(cpus.map((cpu) => cpu.packageId)).size,
    cores: new Set(cpus.map((cpu) => `${cpu.packageId}/${cpu.coreId}`)).size,
  };
}

const VENDOR_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/intel/i, 'Intel'],
  [/amd/i, 'AMD'],
  [/hygon/i, 'Hygon'],
  [/qemu|tcg/i, 'QEMU'],
  [/centaur/i, 'WinChip/Via'],
  [/vmware/i, 'VMware'],
];

/**
 * "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz" → brand "Intel Xeon® Gold 6338", 2.0 GHz: the marks
 * as symbols, "CPU" dropped, the vendor's short name first, the speed from the "@" part.
 */
export function brandOf(modelName: string): { brand: string; baseSpeedGHz?: number } {
  const [name = '', speed] = modelName.split('@');
  const cleaned = name
    .replace(/\(R\)/g, '®')
    .replace(/\(TM\)/g, '™')
    .replace(/\(C\)/g, '©')
    .replace(/CPU/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const words = cleaned.split(' ');
  const vendor = VENDOR_NAMES.find(([pattern]) => pattern.test(cleaned))?.[1];
  const brand = vendor ? [vendor, ...words.slice(1)].join(' ') : cleaned;
  const ghz = speed === undefined ? Number.NaN : Number.parseFloat(speed.trim());
  return { brand, ...(Number.isFinite(ghz) && ghz > 0 ? { baseSpeedGHz: ghz } : {}) };
}

/** proc/meminfo's MemTotal in bytes. */
export function memoryTotalOf(meminfo: string): number | undefined {
  const kib = /^MemTotal:\s+(\d+) kB$/m.exec(meminfo)?.[1];
  return kib === undefined ? undefined : Number(kib) * 1024;
}

/** Firmware placeholders that name nothing ("To Be Filled By O.E.M.", "Default string"). */
export function firmwareText(value: string | undefined): string {
  const text = (value ?? '').replace(/\0/g, '').trim();
  const lower = text.toLowerCase();
  return lower.includes('o.e.m.') || lower.includes('default string') || lower === 'default' ? '' : text;
}

/**
 * The system's maker and model: the DMI names (x86 firmware), else the device tree's model
 * (arm64 boards), else "Virtual machine" when the CPU says it runs under a hypervisor, else
 * "Computer".
 */
export function systemOf(dmi: { vendor?: string; product?: string }, deviceTreeModel: string | undefined, hypervisor: boolean): { manufacturer: string; model: string } {
  const manufacturer = firmwareText(dmi.vendor);
  const model = firmwareText(dmi.product) || firmwareText(deviceTreeModel) || (hypervisor ? 'Virtual machine' : 'Computer');
  return { manufacturer, model };
}
