/**
 * Device numbers chosen from what the running kernel serves, so a fixture behaves the same on
 * every host. The misc major (10) hands open() to the driver registered for the minor in
 * /proc/misc; a minor with no driver there fails with ENODEV, which is exactly what a real
 * `/dev/kvm` node meets when kvm_intel/kvm_amd is not loaded. Whether the host serves 10:232
 * itself (some machines of this kind do, through kvm_pvm) then no longer matters.
 */
import { readFileSync } from 'node:fs';

export const MISC_MAJOR = 10;
/** devices.txt reserves misc minors 240-254 for local use: no upstream driver or module alias claims them. */
const LOCAL_USE_MINORS = [254, 253, 252, 251, 250, 249, 248, 247, 246, 245, 244, 243, 242, 241, 240];

/** Misc minors the running kernel serves right now, by name (`kvm` → 232 where a KVM driver is loaded). */
export function servedMiscMinors(procMisc = readFileSync('/proc/misc', 'utf8')): Map<string, number> {
  const served = new Map<string, number>();
  for (const line of procMisc.split('\n')) {
    const match = /^\s*(\d+)\s+(\S+)\s*$/.exec(line);
    if (match?.[1] && match[2]) served.set(match[2], Number(match[1]));
  }
  return served;
}

/** A misc minor no driver on this kernel serves: opening a 10:<minor> node gives ENODEV. */
export function unservedMiscMinor(procMisc?: string): number {
  const taken = new Set(servedMiscMinors(procMisc).values());
  const free = LOCAL_USE_MINORS.find((minor) => !taken.has(minor));
  if (free === undefined) throw new Error(`every misc minor in 240-254 is served on this kernel (/proc/misc); cannot build a "driver absent" device`);
  return free;
}

/** The minor of a misc driver this kernel serves, or undefined (for example `kvm` on a host without KVM). */
export function servedMiscMinor(name: string, procMisc?: string): number | undefined {
  return servedMiscMinors(procMisc).get(name);
}
