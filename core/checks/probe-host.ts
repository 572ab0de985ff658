import { stat } from '../fs-promised.ts';
import type { CheckFamily, KvmRunSettings, ProbeContext } from './family.ts';
import { errorDetail } from './host/files.ts';
import { FAMILIES, type HostFacts } from './registry.ts';

export class HostRootError extends Error {}

/** Fails fast when the host root itself is unusable: every probe would only say "unknown". */
export async function assertHostRoot(hostRoot: string): Promise<void> {
  try {
    const info = await stat(hostRoot);
    if (!info.isDirectory()) throw new HostRootError(`host root ${hostRoot} is not a directory`);
  } catch (error) {
    if (error instanceof HostRootError) throw error;
    throw new HostRootError(`host root ${hostRoot} cannot be read: ${errorDetail(error)}`);
  }
}

/** Runs every family's probe under the host root (probeFamilies). I/O only: no decisions are made here. */
export async function probeHost(hostRoot: string, kvmRun: KvmRunSettings = { enabled: true }): Promise<HostFacts> {
  // Each family's facts hold its own keys; together with hostRoot they are exactly HostFacts.
  return (await probeFamilies(FAMILIES, { hostRoot, kvmRun })) as HostFacts;
}

/**
 * These families' probes merged with hostRoot: the asynchronous ones in parallel, then the
 * synchronous ones. On a 2-vCPU machine the PCI walk in the middle of the others' reads added
 * 0.15–0.22 of the cycle, after them 0.11–0.17 (docs/development.md); on more cores neither
 * order overlaps it with anything, since it holds the main thread.
 */
export async function probeFamilies(families: readonly CheckFamily[], context: ProbeContext): Promise<{ hostRoot: string }> {
  const parts = new Map<CheckFamily, object>();
  await Promise.all(families.filter((family) => !family.synchronousProbe).map(async (family) => parts.set(family, (await family.probe?.(context)) ?? {})));
  for (const family of families.filter((family) => family.synchronousProbe)) parts.set(family, (await family.probe?.(context)) ?? {});
  // Merged in the families' order, so the facts' keys keep it.
  return Object.assign({ hostRoot: context.hostRoot }, ...families.map((family) => parts.get(family))) as { hostRoot: string };
}
