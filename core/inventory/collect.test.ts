import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/lab/hosts/paths.ts';
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

let base = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir: base, remove } = await tempDir('inventory'));
});
afterAll(() => remove());

/** A root holding only the given files. */
async function fixtureRoot(name: string, files: Record<string, string>): Promise<string> {
  const root = path.join(base, name);
  for (const [relative, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), text);
  }
  return root;
}

const ARM64_CPUINFO = 'processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n\n';

const x86Block = (processor: number, socket: number, core: number) =>
  `processor\t: ${processor}\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz\nphysical id\t: ${socket}\ncore id\t\t: ${core}\nflags\t\t: fpu vmx\n\n`;

describe('collectInventory (from the kernel\'s files, on this machine)', () => {
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

  it('is not collected under another host root, and says why', async () => {
    expect(await inventoryFor('/srv/host')).toEqual({
      collected: false,
      reason: '--host-root /srv/host: the inventory describes the machine virtgate runs on, not a host root',
    });
    expect((await inventoryFor('/')).collected).toBe(true);
  });
});

describe('collectInventory under a root (what each file says, written here by hand)', () => {
  it('reads a two-socket Intel server: DMI names, sockets, cores and threads from cpuinfo, the speed from the model name', async () => {
    // 2 sockets × 2 cores × 2 threads.
    const blocks = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => x86Block(n, n < 4 ? 0 : 1, Math.floor(n / 2) % 2)).join('');
    const root = await fixtureRoot('intel', {
      'proc/cpuinfo': blocks,
      'proc/meminfo': 'MemTotal:       65536000 kB\nMemFree: 1 kB\n',
      'sys/class/dmi/id/sys_vendor': 'Dell Inc.\n',
      'sys/class/dmi/id/product_name': 'PowerEdge R760\n',
    });
    expect(await collectInventory(10_000, root)).toEqual({
      collected: true,
      system: { manufacturer: 'Dell Inc.', model: 'PowerEdge R760' },
      cpu: { brand: 'Intel Xeon® Gold 6338', sockets: 2, cores: 4, threads: 8, baseSpeedGHz: 2 },
      memoryTotalBytes: 65536000 * 1024,
    });
  });

  it('describes the machine under the root, not this one: a CPU model, counts, memory and maker this machine does not have', async () => {
    // 3 sockets × 5 cores of a Xeon E7-8890 v4: no machine these tests run on.
    const model = 'Intel(R) Xeon(R) CPU E7-8890 v4 @ 2.20GHz';
    const blocks = Array.from({ length: 15 }, (_, n) => x86Block(n, Math.floor(n / 5), n % 5).replace('Gold 6338 CPU @ 2.00GHz', 'CPU E7-8890 v4 @ 2.20GHz')).join('');
    const own = await procTruth();
    expect(await readFile('/proc/cpuinfo', 'utf8'), 'this machine must not be the fixture').not.toContain(model);
    expect(own.threads).not.toBe(15);
    const root = await fixtureRoot('another-machine', {
      'proc/cpuinfo': blocks,
      'proc/meminfo': 'MemTotal:       3141592 kB\n',
      'sys/class/dmi/id/sys_vendor': 'Fixture Systems\n',
      'sys/class/dmi/id/product_name': 'Model 15\n',
    });
    expect(await collectInventory(10_000, root)).toEqual({
      collected: true,
      system: { manufacturer: 'Fixture Systems', model: 'Model 15' },
      cpu: { brand: 'Intel Xeon® E7-8890 v4', sockets: 3, cores: 15, threads: 15, baseSpeedGHz: 2.2 },
      memoryTotalBytes: 3141592 * 1024,
    });
  });

  it('names a VM without firmware names "Virtual machine", and drops firmware placeholders', async () => {
    const root = await fixtureRoot('vm', {
      'proc/cpuinfo': x86Block(0, 0, 0).replace('fpu vmx', 'fpu hypervisor'),
      'proc/meminfo': 'MemTotal:       2048 kB\n',
      'sys/class/dmi/id/sys_vendor': 'To Be Filled By O.E.M.\n',
    });
    expect(await collectInventory(10_000, root)).toMatchObject({ system: { manufacturer: '', model: 'Virtual machine' }, cpu: { sockets: 1, cores: 1, threads: 1 } });
  });

  it('reads an arm64 board: sockets and cores from sysfs topology, the model from the device tree', async () => {
    const files: Record<string, string> = {
      'proc/cpuinfo': [0, 1, 2, 3].map((n) => ARM64_CPUINFO.replace('processor\t: 0', `processor\t: ${n}`)).join(''),
      'proc/meminfo': 'MemTotal:       4096 kB\n',
      'proc/device-tree/model': 'Ampere Altra Developer Platform\0',
    };
    for (const n of [0, 1, 2, 3]) {
      files[`sys/devices/system/cpu/cpu${n}/topology/physical_package_id`] = '0\n';
      files[`sys/devices/system/cpu/cpu${n}/topology/core_id`] = `${n}\n`;
    }
    const inventory = await collectInventory(10_000, await fixtureRoot('arm64', files));
    // The CPU's name is not read (empty): the library would name this machine's CPU (collect-library.test.ts).
    expect(inventory).toEqual({ collected: true, system: { manufacturer: '', model: 'Ampere Altra Developer Platform' }, cpu: { brand: '', sockets: 1, cores: 4, threads: 4 }, memoryTotalBytes: 4096 * 1024 });
  });

  it('says why when cpuinfo cannot be read', async () => {
    const root = await fixtureRoot('empty', { 'proc/meminfo': 'MemTotal:       4096 kB\n' });
    expect(await collectInventory(10_000, root)).toEqual({ collected: false, reason: 'the machine could not be read: proc/cpuinfo cannot be read' });
  });
});
