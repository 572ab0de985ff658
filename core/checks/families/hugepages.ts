import type { CheckFamily, ProbeContext } from '../family.ts';
import { describeRead, readHostDir, readHostFile } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import type { CheckOutcomeOf } from '../outcome.ts';

/**
 * Hugepages reserved on the host, for VMs that ask for them (spec.domain.memory.hugepages).
 * Informational: it passes or skips and never costs the tier or readiness.
 */
const IDS = ['hugepages'] as const;
type HugepagesCheckId = (typeof IDS)[number];

export interface HugepagePool {
  sizeKiB: number;
  total: number;
  free: number;
}

export interface HugepagesFacts {
  /** The default size's pool from proc/meminfo (HugePages_Total, HugePages_Free, Hugepagesize), when it could be read. */
  meminfo: HugepagePool | null;
  /** Every size's pool from sys/kernel/mm/hugepages/hugepages-<size>kB, smallest size first. */
  pools: HugepagePool[];
}

export interface HugepagesFamilyFacts {
  hugepages: Observation<HugepagesFacts>;
}

const POOL_DIR = 'sys/kernel/mm/hugepages';

function meminfoField(text: string, key: string): number | undefined {
  const match = new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The default pool from proc/meminfo; null when a field is absent (a kernel without hugetlbfs). */
export function parseMeminfoHugepages(text: string): HugepagePool | null {
  const total = meminfoField(text, 'HugePages_Total');
  const free = meminfoField(text, 'HugePages_Free');
  const sizeKiB = meminfoField(text, 'Hugepagesize');
  if (total === undefined || free === undefined || sizeKiB === undefined) return null;
  return { sizeKiB, total, free };
}

async function readCount(hostRoot: string, relative: string): Promise<number | undefined> {
  const read = await readHostFile(hostRoot, relative, 64);
  if (read.state !== 'ok') return undefined;
  const text = read.text.trim();
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

async function readPools(hostRoot: string, entries: string[]): Promise<HugepagePool[]> {
  const pools = await Promise.all(
    entries.map(async (entry): Promise<HugepagePool | undefined> => {
      const size = /^hugepages-(\d{1,15})kB$/.exec(entry)?.[1];
      if (size === undefined) return undefined;
      const [total, free] = await Promise.all([
        readCount(hostRoot, `${POOL_DIR}/${entry}/nr_hugepages`),
        readCount(hostRoot, `${POOL_DIR}/${entry}/free_hugepages`),
      ]);
      return total === undefined || free === undefined ? undefined : { sizeKiB: Number(size), total, free };
    }),
  );
  return pools.filter((pool) => pool !== undefined).sort((a, b) => a.sizeKiB - b.sizeKiB);
}

export async function probeHugepages({ hostRoot }: ProbeContext): Promise<HugepagesFamilyFacts> {
  const [meminfo, dir] = await Promise.all([readHostFile(hostRoot, 'proc/meminfo', 64 * 1024), readHostDir(hostRoot, POOL_DIR)]);
  if (meminfo.state !== 'ok' && dir.state !== 'ok') {
    return { hugepages: { state: 'unknown', reason: `${describeRead('proc/meminfo', meminfo)}, and ${describeRead(POOL_DIR, dir)}` } };
  }
  const pools = dir.state === 'ok' ? await readPools(hostRoot, dir.entries) : [];
  return { hugepages: { state: 'ok', value: { meminfo: meminfo.state === 'ok' ? parseMeminfoHugepages(meminfo.text) : null, pools } } };
}

const size = (kib: number): string => (kib % (1024 * 1024) === 0 ? `${kib / (1024 * 1024)} GiB` : kib % 1024 === 0 ? `${kib / 1024} MiB` : `${kib} KiB`);

export function evaluateHugepages(hugepages: Observation<HugepagesFacts>): CheckOutcomeOf<HugepagesCheckId> {
  const id = 'hugepages';
  if (hugepages.state === 'unknown') return { id, status: 'skip', message: `hugepages not looked at: ${hugepages.reason}` };
  const { meminfo, pools } = hugepages.value;
  // The per-size pools include the default one; proc/meminfo alone only when sysfs has none.
  const known = pools.length > 0 ? pools : meminfo ? [meminfo] : [];
  const observed = {
    pools: known.map((pool) => ({ sizeKiB: pool.sizeKiB, total: pool.total, free: pool.free })),
    ...(meminfo ? { defaultSizeKiB: meminfo.sizeKiB } : {}),
  };
  const reserved = known.filter((pool) => pool.total > 0);
  if (reserved.length === 0) {
    return {
      id,
      status: 'pass',
      message: 'no hugepages reserved; ordinary VMs do not use them (only VMs with spec.domain.memory.hugepages need a reserve)',
      hint: 'Only for VMs with spec.domain.memory.hugepages: reserve them at boot (hugepagesz=1G hugepages=N) or with vm.nr_hugepages.',
      observed,
    };
  }
  const summary = reserved.map((pool) => `${size(pool.sizeKiB)}: ${pool.free} of ${pool.total} free`).join('; ');
  return { id, status: 'pass', message: `hugepages reserved (${summary})`, observed };
}

export const hugepagesFamily = {
  ids: IDS,
  probe: probeHugepages,
  evaluate: (facts: HugepagesFamilyFacts) => [evaluateHugepages(facts.hugepages)],
  example: { hugepages: { state: 'ok', value: { meminfo: { sizeKiB: 2048, total: 0, free: 0 }, pools: [{ sizeKiB: 2048, total: 0, free: 0 }] } } } satisfies HugepagesFamilyFacts,
} satisfies CheckFamily;
