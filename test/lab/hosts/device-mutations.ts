/** Changing a built fixture host's device nodes under a running test: take one away, put it back. */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { DEVICE_SPECS, type DeviceName } from '../../../core/checks/host/device-numbers.ts';
import { type DevicePlan, makeDevice } from './device-nodes.ts';
import { insideRoot } from './host-files.ts';
import type { HostProfile } from './profiles/profiles.ts';

/** buildHost leaves this in the root, so that a device can be restored as the profile made it. */
export const MANIFEST = '.virtgate-fixture.json';

export interface Manifest {
  profile: HostProfile;
  devices: Partial<Record<DeviceName, DevicePlan>>;
}

/** Removes a device node (or whatever stands at its path). */
export async function removeDevice(root: string, name: DeviceName): Promise<void> {
  await rm(insideRoot(root, DEVICE_SPECS[name].path), { recursive: true, force: true });
}

/** Puts back the device node the profile built; throws if the profile had none at that path. */
export async function restoreDevice(root: string, name: DeviceName): Promise<void> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(root, MANIFEST), 'utf8')) as Manifest;
  } catch (error) {
    throw new Error(`restoreDevice: ${root} was not made by buildHost (${error instanceof Error ? error.message : String(error)})`);
  }
  const plan = manifest.devices[name];
  if (!plan) throw new Error(`restoreDevice: profile ${manifest.profile} has no ${name} device to restore`);
  await removeDevice(root, name);
  await makeDevice(root, name, plan);
}
