import path from 'node:path';
import { readdir } from '../fs-promised.ts';
import { readHostFile } from '../checks/host/files.ts';
import { brandOf, memoryTotalOf, readCpuinfo, systemOf, topologyOf } from './from-files.ts';
import { type Inventory, inventorySchema, notCollected } from './schema.ts';

const clean = (value: unknown): string => (typeof value === 'string' ? value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 128) : '');

const textOf = async (root: string, relative: string): Promise<string | undefined> => {
  const read = await readHostFile(root, relative, 1024 * 1024 * 4);
  return read.state === 'ok' ? read.text : undefined;
};

/** Sockets and cores from sysfs, one directory per logical CPU: for cpuinfo without `physical id` (arm64). */
async function sysfsTopology(root: string): Promise<ReturnType<typeof topologyOf> | undefined> {
  const names = await readdir(`${root}/sys/devices/system/cpu`).catch(() => [] as string[]);
  const cpus = await Promise.all(
    names
      .filter((name) => /^cpu\d+$/.test(name))
      .map(async (name) => ({
        packageId: (await textOf(root, `sys/devices/system/cpu/${name}/topology/physical_package_id`))?.trim(),
        coreId: (await textOf(root, `sys/devices/system/cpu/${name}/topology/core_id`))?.trim(),
      })),
  );
  const known = cpus.filter((cpu): cpu is { packageId: string; coreId: string } => cpu.packageId !== undefined && cpu.coreId !== undefined);
  return known.length > 0 ? topologyOf(known) : undefined;
}

/**
 * Whether the running machine is the one under `root`. systeminformation reads the running
 * machine's /proc and /sys (and runs lscpu), never `root`, so it may only fill in for a root that
 * cannot be another machine: `/` itself, or a root whose cpuinfo is the running kernel's, byte for
 * byte (the agent's `/host` on its own node). A copy of another node's files (a fixture host, a
 * recording) differs, and the library would name this machine's CPU for it.
 */
async function isRunningMachine(root: string, cpuinfoText: string): Promise<boolean> {
  if (path.resolve(root) === '/') return true;
  return (await textOf('/', 'proc/cpuinfo')) === cpuinfoText;
}

/**
 * The CPU's name where cpuinfo has none (arm64: only implementer and part numbers): lscpu's
 * table of names, through systeminformation, loaded only then; an empty brand (not read) when the
 * library would describe another machine than the one under `root`.
 */
async function brandFromLibrary(root: string, cpuinfoText: string): Promise<{ brand: string; baseSpeedGHz?: number }> {
  if (!(await isRunningMachine(root, cpuinfoText))) return { brand: '' };
  const cpu = await (await import('systeminformation')).default.cpu();
  return { brand: [cpu.manufacturer, cpu.brand].filter(Boolean).join(' '), ...(cpu.speed > 0 ? { baseSpeedGHz: cpu.speed } : {}) };
}

/** The inventory from the files the kernel exposes under `root`: cpuinfo, meminfo, DMI, the device tree, sysfs topology. */
async function readInventory(root: string): Promise<Inventory> {
  const [cpuinfoText, meminfo, vendor, product, deviceTreeModel] = await Promise.all([
    textOf(root, 'proc/cpuinfo'),
    textOf(root, 'proc/meminfo'),
    textOf(root, 'sys/class/dmi/id/sys_vendor'),
    textOf(root, 'sys/class/dmi/id/product_name'),
    textOf(root, 'proc/device-tree/model'),
  ]);
  if (cpuinfoText === undefined) throw new Error('proc/cpuinfo cannot be read');
  if (meminfo === undefined) throw new Error('proc/meminfo cannot be read');
  const cpuinfo = readCpuinfo(cpuinfoText);
  const topology = cpuinfo.hasTopology ? cpuinfo : ((await sysfsTopology(root)) ?? cpuinfo);
  const { brand, baseSpeedGHz } = cpuinfo.modelName ? brandOf(cpuinfo.modelName) : await brandFromLibrary(root, cpuinfoText);
  const system = systemOf({ vendor, product }, deviceTreeModel, cpuinfo.hypervisor);
  return inventorySchema.parse({
    collected: true,
    system: { manufacturer: clean(system.manufacturer), model: clean(system.model) },
    cpu: {
      brand: clean(brand),
      sockets: topology.sockets,
      cores: topology.cores,
      threads: topology.threads,
      ...(baseSpeedGHz !== undefined ? { baseSpeedGHz } : {}),
    },
    memoryTotalBytes: memoryTotalOf(meminfo),
  });
}

/**
 * The inventory of the machine whose /proc and /sys are under `root` (`/`: the machine this
 * process runs on; the agent's host root, `/host` in the DaemonSet: its node). Read from the
 * kernel's files under `root`, without helper commands; bounded in time all the same, since the
 * library fallback may run some. Never throws: a failure is an inventory that says it was not
 * collected, and why.
 */
export async function collectInventory(timeoutMs = 10_000, root = '/'): Promise<Inventory> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([readInventory(root), timeout]);
  } catch (error) {
    return notCollected(`the machine could not be read: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** `virtgate check`: the inventory describes the running machine, so only a check of `/` collects it. */
export async function inventoryFor(hostRoot: string): Promise<Inventory> {
  if (hostRoot.replace(/\/+$/, '') !== '') return notCollected(`--host-root ${hostRoot}: the inventory describes the machine virtgate runs on, not a host root`);
  return collectInventory();
}
