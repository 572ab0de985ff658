import type { Observation } from '../facts.ts';
import { describeRead, readHostFile } from '../files.ts';

/** The running kernel's release, e.g. `5.14.0-427.el9.x86_64`. */
export async function probeKernelRelease(hostRoot: string): Promise<Observation<string>> {
  const read = await readHostFile(hostRoot, 'proc/sys/kernel/osrelease', 4096);
  if (read.state !== 'ok') return { state: 'unknown', reason: describeRead('proc/sys/kernel/osrelease', read) };
  const release = read.text.trim();
  // The kernel caps a release at 64 characters (__NEW_UTS_LEN): anything longer is not one.
  if (!/^\d+\.\d+/.test(release) || /[^\x21-\x7e]/.test(release) || release.length > 64) {
    return { state: 'unknown', reason: `proc/sys/kernel/osrelease is not a kernel release: ${JSON.stringify(release.slice(0, 64))}` };
  }
  return { state: 'ok', value: release };
}
