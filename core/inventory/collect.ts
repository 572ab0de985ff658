import si from 'systeminformation';
import { type Inventory, inventorySchema, notCollected } from './schema.ts';

const clean = (value: unknown): string => (typeof value === 'string' ? value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 128) : '');

/**
 * The inventory of the machine this process runs on, read by `systeminformation` from its /proc
 * and /sys (a container shares its node's kernel, so the agent describes its node). Some of the
 * library's calls run synchronous code: call this once, before serving, not on every probe.
 * Never throws: a failure is an inventory that says it was not collected, and why.
 */
export async function collectInventory(timeoutMs = 10_000): Promise<Inventory> {
  let timer: NodeJS.Timeout | undefined;
  // The library runs helper commands (lscpu, dmidecode); a hung one must not hold the agent's start.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  try {
    const [system, cpu, memory] = await Promise.race([Promise.all([si.system(), si.cpu(), si.mem()]), timeout]);
    const inventory = inventorySchema.parse({
      collected: true,
      system: { manufacturer: clean(system.manufacturer), model: clean(system.model) },
      cpu: {
        brand: clean([cpu.manufacturer, cpu.brand].filter(Boolean).join(' ')),
        sockets: cpu.processors,
        cores: cpu.physicalCores,
        threads: cpu.cores,
        ...(cpu.speed > 0 ? { baseSpeedGHz: cpu.speed } : {}),
      },
      memoryTotalBytes: memory.total,
    });
    return inventory;
  } catch (error) {
    return notCollected(`systeminformation could not read the machine: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** `virtgate check`: the inventory describes the running machine, so only a check of `/` collects it. */
export async function inventoryFor(hostRoot: string): Promise<Inventory> {
  if (hostRoot.replace(/\/+$/, '') !== '') return notCollected(`--host-root ${hostRoot}: the inventory describes the machine virtgate runs on, not a host root`);
  return collectInventory();
}
