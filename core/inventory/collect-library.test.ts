/**
 * When collectInventory may ask systeminformation (the CPU's name where cpuinfo has none, arm64):
 * the library reads the running machine, so only for a root that is that machine. The running
 * machine is made an arm64 here (its /proc/cpuinfo as read through readHostFile), and the library
 * answers what it is told, so each case runs the same on every machine.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test/lab/hosts/paths.ts';
import { collectInventory } from './collect.ts';

const ARM64_CPUINFO = [0, 1].map((n) => `processor\t: ${n}\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n\n`).join('');

const library = vi.hoisted(() => ({ cpu: vi.fn<() => Promise<{ manufacturer: string; brand: string; speed: number }>>() }));
vi.mock('systeminformation', () => ({ default: library }));
vi.mock('../checks/host/files.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../checks/host/files.ts')>();
  return {
    ...original,
    readHostFile: async (root: string, relative: string, maxBytes?: number) =>
      path.resolve(root) === '/' && relative === 'proc/cpuinfo' ? { state: 'ok' as const, text: ARM64_CPUINFO, truncated: false } : original.readHostFile(root, relative, maxBytes),
  };
});

let base = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir: base, remove } = await tempDir('inventory-library'));
});
afterAll(() => remove());
beforeEach(() => {
  library.cpu.mockReset();
  library.cpu.mockResolvedValue({ manufacturer: 'ARM', brand: 'Neoverse-N1', speed: 3 });
});

async function rootWithCpuinfo(name: string, cpuinfo: string): Promise<string> {
  const root = path.join(base, name);
  await mkdir(path.join(root, 'proc'), { recursive: true });
  await writeFile(path.join(root, 'proc/cpuinfo'), cpuinfo);
  await writeFile(path.join(root, 'proc/meminfo'), 'MemTotal:       4096 kB\n');
  return root;
}

describe('collectInventory and the library fallback for the CPU\'s name', () => {
  it('asks the library for `/`, the running machine', async () => {
    expect((await collectInventory(10_000, '/')).cpu).toMatchObject({ brand: 'ARM Neoverse-N1', baseSpeedGHz: 3, threads: 2 });
    expect(library.cpu).toHaveBeenCalledOnce();
  });

  it('asks it for a root whose cpuinfo is the running kernel\'s, byte for byte (the agent\'s /host on its node)', async () => {
    const inventory = await collectInventory(10_000, await rootWithCpuinfo('same', ARM64_CPUINFO));
    expect(inventory.cpu).toMatchObject({ brand: 'ARM Neoverse-N1', baseSpeedGHz: 3 });
    expect(library.cpu).toHaveBeenCalledOnce();
  });

  it('does not ask it for another machine\'s root: the CPU\'s name is not read (empty), and no speed', async () => {
    const other = ARM64_CPUINFO.replace('0xd0c', '0xd40');
    expect(await collectInventory(10_000, await rootWithCpuinfo('other', other))).toEqual({
      collected: true,
      system: { manufacturer: '', model: 'Computer' },
      cpu: { brand: '', sockets: 1, cores: 2, threads: 2 },
      memoryTotalBytes: 4096 * 1024,
    });
    expect(library.cpu).not.toHaveBeenCalled();
  });

  it('gives up after its timeout and says so, instead of holding the agent\'s start', async () => {
    library.cpu.mockReturnValue(new Promise(() => {}));
    expect(await collectInventory(50, '/')).toEqual({ collected: false, reason: 'the machine could not be read: no answer within 50 ms' });
  });
});
