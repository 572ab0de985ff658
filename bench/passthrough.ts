import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { evaluate } from '../core/checks/evaluate.ts';
import type { CheckFamily, ProbeContext } from '../core/checks/family.ts';
import { probeFamilies } from '../core/checks/probe-host.ts';
import { passthroughFamily } from '../core/checks/families/passthrough.ts';
import { MAX_PCI_FUNCTIONS, PCI_WALK_CHUNK } from '../core/checks/host/pci-walk.ts';
import { DEFAULT_POLICY } from '../core/checks/policy.ts';
import { DEFAULT_VHV_OPTIONS, runVirtHostValidate } from '../core/checks/families/vhv.ts';
import { FAMILIES, type HostFacts } from '../core/checks/registry.ts';
import { buildHost } from '../test/lab/hosts/build-host.ts';
import { median, timeRuns } from './stats.ts';
import type { BenchRow } from './table.ts';

/**
 * What the passthrough family adds to a probe cycle: the cycle on this machine with every family
 * against the same cycle without it (the cycle before the family existed, measured in the same
 * run: the same probes, the passthrough fact replaced by a constant), and the walk alone on the
 * pci-500 fixture host (500 PCI functions, 500 IOMMU groups).
 */
export async function passthroughBench(): Promise<BenchRow[]> {
  const section = 'probe cycle';
  const context: ProbeContext = { hostRoot: '/', kvmRun: { enabled: false } };
  const others = FAMILIES.filter((family) => family !== passthroughFamily);
  const probeAll = (families: readonly CheckFamily[]) => probeFamilies(families, context);
  const absent = { passthrough: { state: 'ok', value: { present: false } } };
  // Alternating runs, so load on the machine falls on both alike.
  const before: number[] = [];
  const after: number[] = [];
  for (let round = 0; round < 30; round++) {
    before.push(...(await timeRuns(10, async () => evaluate({ ...(await probeAll(others)), ...absent } as HostFacts, { state: 'disabled' }, DEFAULT_POLICY), round === 0 ? 10 : 0)));
    after.push(...(await timeRuns(10, async () => evaluate((await probeAll(FAMILIES)) as HostFacts, { state: 'disabled' }, DEFAULT_POLICY), round === 0 ? 10 : 0)));
  }

  // The cycle the agent runs: the probes alongside virt-host-validate.
  const fullBefore: number[] = [];
  const fullAfter: number[] = [];
  for (let round = 0; round < 10; round++) {
    fullBefore.push(...(await timeRuns(3, async () => {
      const [facts, vhv] = await Promise.all([probeAll(others), runVirtHostValidate(DEFAULT_VHV_OPTIONS)]);
      return evaluate({ ...facts, ...absent } as HostFacts, vhv, DEFAULT_POLICY);
    }, round === 0 ? 2 : 0)));
    fullAfter.push(...(await timeRuns(3, async () => {
      const [facts, vhv] = await Promise.all([probeAll(FAMILIES), runVirtHostValidate(DEFAULT_VHV_OPTIONS)]);
      return evaluate(facts as HostFacts, vhv, DEFAULT_POLICY);
    }, round === 0 ? 2 : 0)));
  }

  const dir = await mkdtemp(path.join(os.tmpdir(), 'virtgate-bench-pci-'));
  try {
    const host = await buildHost(path.join(dir, 'pci-500'), 'pci-500');
    const walk = await timeRuns(100, () => passthroughFamily.probe({ hostRoot: host.root }), 5);
    const withinBound = { text: '≤ 1.2× the cycle without it', met: (value: number) => value / median(before) <= 1.2 };
    return [
      { section, figure: 'native probes + evaluate without the passthrough family (the cycle before it), median', value: median(before), unit: 'ms' },
      { section, figure: 'native probes + evaluate with the passthrough family, median', value: median(after), unit: 'ms', target: withinBound, baseline: { label: 'without it', value: median(before) }, ratio: 'value/baseline' },
      { section, figure: 'full cycle with virt-host-validate, without the passthrough family, median', value: median(fullBefore), unit: 'ms' },
      { section, figure: 'full cycle with virt-host-validate, with the passthrough family, median', value: median(fullAfter), unit: 'ms', target: { text: '≤ 1.2× the cycle without it', met: (value: number) => value / median(fullBefore) <= 1.2 }, baseline: { label: 'without it', value: median(fullBefore) }, ratio: 'value/baseline' },
      { section, figure: `passthrough probe on the pci-500 fixture (500 functions; bound ${MAX_PCI_FUNCTIONS}, the event loop given back every ${PCI_WALK_CHUNK}), median`, value: median(walk), unit: 'ms' },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
