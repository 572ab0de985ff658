import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost } from '../../../test/lab/hosts/build-host.ts';
import { tempDir } from '../../../test/lab/hosts/paths.ts';
import { evaluate } from '../evaluate.ts';
import { evaluateHugepages, type HugepagesFacts, parseMeminfoHugepages, probeHugepages } from './hugepages.ts';
import type { Observation } from '../observation.ts';
import { DEFAULT_POLICY } from '../policy.ts';
import { probeHost } from '../probe-host.ts';
import type { HostFacts } from '../registry.ts';

let base = '';
let remove = async () => {};
let counter = 0;

beforeAll(async () => {
  ({ dir: base, remove } = await tempDir('hugepages'));
});
afterAll(() => remove());

const MEMINFO = `MemTotal:       263842580 kB
AnonHugePages:      2048 kB
HugePages_Total:     512
HugePages_Free:      500
HugePages_Rsvd:        0
HugePages_Surp:        0
Hugepagesize:       2048 kB
Hugetlb:        5242880 kB
`;

/** A host root with these files, relative paths to contents. */
async function host(files: Record<string, string>): Promise<string> {
  counter += 1;
  const root = path.join(base, `h${counter}`);
  for (const [relative, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), text);
  }
  await mkdir(root, { recursive: true });
  return root;
}

const pool = (size: string, total: string, free: string) => ({
  [`sys/kernel/mm/hugepages/hugepages-${size}kB/nr_hugepages`]: total,
  [`sys/kernel/mm/hugepages/hugepages-${size}kB/free_hugepages`]: free,
});

const probe = async (hostRoot: string) => (await probeHugepages({ hostRoot })).hugepages;

describe('probeHugepages', () => {
  it('reads the default pool from proc/meminfo and every size from sysfs, smallest first', async () => {
    const root = await host({ 'proc/meminfo': MEMINFO, ...pool('1048576', '4\n', '3\n'), ...pool('2048', '512\n', '500\n') });
    expect(await probe(root)).toEqual({
      state: 'ok',
      value: {
        meminfo: { sizeKiB: 2048, total: 512, free: 500 },
        pools: [
          { sizeKiB: 2048, total: 512, free: 500 },
          { sizeKiB: 1048576, total: 4, free: 3 },
        ],
      },
    });
  });

  it('keeps proc/meminfo alone when sysfs has no pools, and sysfs alone when meminfo is missing', async () => {
    expect(await probe(await host({ 'proc/meminfo': MEMINFO }))).toEqual({
      state: 'ok',
      value: { meminfo: { sizeKiB: 2048, total: 512, free: 500 }, pools: [] },
    });
    expect(await probe(await host(pool('2048', '0\n', '0\n')))).toEqual({
      state: 'ok',
      value: { meminfo: null, pools: [{ sizeKiB: 2048, total: 0, free: 0 }] },
    });
  });

  it('drops a pool whose counts are not numbers, and entries that are not pools', async () => {
    const root = await host({ ...pool('2048', 'garbage\n', '0\n'), ...pool('1048576', '2\n', '2\n'), 'sys/kernel/mm/hugepages/README': 'x' });
    expect(await probe(root)).toMatchObject({ state: 'ok', value: { pools: [{ sizeKiB: 1048576, total: 2, free: 2 }] } });
  });

  it('says "unknown" with both reasons when neither source exists', async () => {
    expect(await probe(await host({}))).toEqual({
      state: 'unknown',
      reason: 'proc/meminfo does not exist, and sys/kernel/mm/hugepages does not exist',
    });
  });

  it('reads this machine: the default pool in proc/meminfo agrees with its sysfs pool', async () => {
    const facts = await probe('/');
    if (facts.state !== 'ok') throw new Error(`expected ok on this machine: ${facts.reason}`);
    const { meminfo, pools } = facts.value;
    if (!meminfo) throw new Error('this machine\'s /proc/meminfo has no hugepage fields');
    expect(meminfo.sizeKiB).toBeGreaterThan(0);
    expect(pools.find((candidate) => candidate.sizeKiB === meminfo.sizeKiB)).toEqual(meminfo);
  });
});

describe('parseMeminfoHugepages', () => {
  it('needs all three fields', () => {
    expect(parseMeminfoHugepages(MEMINFO)).toEqual({ sizeKiB: 2048, total: 512, free: 500 });
    expect(parseMeminfoHugepages('MemTotal: 1 kB\nHugePages_Total: 1\n')).toBeNull();
    expect(parseMeminfoHugepages('')).toBeNull();
  });
});

describe('evaluateHugepages: informational', () => {
  it('passes with what is reserved, per size', () => {
    const facts: Observation<HugepagesFacts> = {
      state: 'ok',
      value: { meminfo: { sizeKiB: 2048, total: 0, free: 0 }, pools: [{ sizeKiB: 2048, total: 0, free: 0 }, { sizeKiB: 1048576, total: 4, free: 3 }] },
    };
    expect(evaluateHugepages(facts)).toEqual({
      id: 'hugepages',
      status: 'pass',
      message: 'hugepages reserved (1 GiB: 3 of 4 free)',
      observed: { pools: [{ sizeKiB: 2048, total: 0, free: 0 }, { sizeKiB: 1048576, total: 4, free: 3 }], defaultSizeKiB: 2048 },
    });
  });

  it('passes with a hint when none are reserved, and uses proc/meminfo when sysfs has no pools', () => {
    const none = evaluateHugepages({ state: 'ok', value: { meminfo: { sizeKiB: 2048, total: 0, free: 0 }, pools: [] } });
    expect(none).toMatchObject({ status: 'pass', message: expect.stringMatching(/^no hugepages reserved/), hint: expect.stringMatching(/hugepages=N/) });
    expect(evaluateHugepages({ state: 'ok', value: { meminfo: { sizeKiB: 2048, total: 8, free: 8 }, pools: [] } }).message).toBe(
      'hugepages reserved (2 MiB: 8 of 8 free)',
    );
  });

  it('skips, never errors, when it could not look', () => {
    expect(evaluateHugepages({ state: 'unknown', reason: 'proc/meminfo could not be read (EACCES)' })).toEqual({
      id: 'hugepages',
      status: 'skip',
      message: 'hugepages not looked at: proc/meminfo could not be read (EACCES)',
    });
  });

  it('never warns or fails, and never changes tier, ready or conclusive (property, on a probed fixture host)', async () => {
    const built = await buildHost(path.join(base, 'fixture'), 'intel-metal');
    const facts: HostFacts = await probeHost(built.root);
    const without = evaluate({ ...facts, hugepages: { state: 'unknown', reason: 'x' } }, { state: 'disabled' }, DEFAULT_POLICY);
    const count = fc.nat(1_000_000);
    const poolArb = fc.record({ sizeKiB: fc.constantFrom(64, 2048, 32768, 1048576), total: count, free: count });
    const hugepagesArb: fc.Arbitrary<Observation<HugepagesFacts>> = fc.oneof(
      fc.record({ state: fc.constant('ok' as const), value: fc.record({ meminfo: fc.option(poolArb, { nil: null }), pools: fc.array(poolArb, { maxLength: 4 }) }) }),
      fc.record({ state: fc.constant('unknown' as const), reason: fc.string({ minLength: 1 }) }),
    );
    fc.assert(
      fc.property(hugepagesArb, (hugepages) => {
        expect(['pass', 'skip']).toContain(evaluateHugepages(hugepages).status);
        const verdict = evaluate({ ...facts, hugepages }, { state: 'disabled' }, DEFAULT_POLICY);
        expect({ tier: verdict.tier, ready: verdict.ready, conclusive: verdict.conclusive }).toEqual({
          tier: without.tier,
          ready: without.ready,
          conclusive: without.conclusive,
        });
      }),
      { numRuns: 300 },
    );
  });
});
