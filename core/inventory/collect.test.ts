import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { collectInventory, inventoryFor } from './collect.ts';
import { inventorySchema } from './schema.ts';

/** What /proc says, read here independently of systeminformation. */
async function procTruth(): Promise<{ threads: number; sockets: number; cores: number; memoryTotalBytes: number }> {
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8');
  const blocks = cpuinfo.split(/\n\s*\n/).filter((block) => /^processor\s*:/m.test(block));
  const field = (block: string, key: string) => new RegExp(`^${key}\\s*:\\s*(.*)$`, 'm').exec(block)?.[1]?.trim();
  const sockets = new Set(blocks.map((block) => field(block, 'physical id') ?? '0'));
  const cores = new Set(blocks.map((block) => `${field(block, 'physical id') ?? '0'}/${field(block, 'core id') ?? field(block, 'processor')}`));
  const meminfo = await readFile('/proc/meminfo', 'utf8');
  const kib = Number(/^MemTotal:\s+(\d+) kB$/m.exec(meminfo)?.[1]);
  return { threads: blocks.length, sockets: sockets.size, cores: cores.size, memoryTotalBytes: kib * 1024 };
}

describe('collectInventory (the real systeminformation, on this machine)', () => {
  it('matches /proc/cpuinfo and /proc/meminfo, and fits the report schema', async () => {
    const inventory = await collectInventory();
    const truth = await procTruth();
    expect(inventory.collected, inventory.reason).toBe(true);
    expect(inventorySchema.safeParse(inventory).success).toBe(true);
    expect(inventory.cpu?.threads).toBe(truth.threads);
    expect(inventory.cpu?.sockets).toBe(truth.sockets);
    expect(inventory.cpu?.cores).toBe(truth.cores);
    expect(inventory.memoryTotalBytes).toBe(truth.memoryTotalBytes);
    expect(inventory.cpu?.brand.length).toBeGreaterThan(0);
  });

  it('gives up after its timeout and says so, instead of holding the agent\'s start', async () => {
    expect(await collectInventory(1)).toEqual({ collected: false, reason: 'systeminformation could not read the machine: no answer within 1 ms' });
  });

  it('is not collected under another host root, and says why', async () => {
    expect(await inventoryFor('/srv/host')).toEqual({
      collected: false,
      reason: '--host-root /srv/host: the inventory describes the machine virtgate runs on, not a host root',
    });
    expect((await inventoryFor('/')).collected).toBe(true);
  });
});
