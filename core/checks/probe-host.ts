import { stat } from '../fs-promised.ts';
import { DEVICE_SPECS, type DeviceSpecs } from './host/device-numbers.ts';
import type { KvmRunSettings, ProbeContext } from './family.ts';
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

/** Runs every family's probe under the host root, in parallel. I/O only: no decisions are made here. */
export async function probeHost(hostRoot: string, devices: DeviceSpecs = DEVICE_SPECS, kvmRun: KvmRunSettings = { enabled: true }): Promise<HostFacts> {
  const context: ProbeContext = { hostRoot, devices, kvmRun };
  const parts = await Promise.all(FAMILIES.map((family) => ('probe' in family ? family.probe(context) : {})));
  // Each part holds its family's keys; together with hostRoot they are exactly HostFacts.
  return Object.assign({ hostRoot }, ...parts) as HostFacts;
}
