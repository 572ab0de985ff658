import type { Observation, OsRelease } from '../facts.ts';
import { describeRead, readHostFile } from '../files.ts';
import { parseOsRelease } from '../parse/os-release.ts';

/** The host's userland, from etc/os-release (falling back to usr/lib/os-release, as os-release(5) says). */
export async function probeOsRelease(hostRoot: string): Promise<Observation<OsRelease>> {
  let read = await readHostFile(hostRoot, 'etc/os-release', 64 * 1024);
  if (read.state === 'missing') read = await readHostFile(hostRoot, 'usr/lib/os-release', 64 * 1024);
  if (read.state !== 'ok') return { state: 'unknown', reason: describeRead('etc/os-release', read) };
  return parseOsRelease(read.text);
}
