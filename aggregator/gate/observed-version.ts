import { clip } from '../../core/untrusted.ts';
import { minorOf } from '../versions/minor.ts';
import type { ObservedVersion } from '../documents/gate.ts';

export type { ObservedVersion } from '../documents/gate.ts';

/** A raw version string; unknown when no MAJOR.MINOR can be read from it. */
export function observeVersion(raw: string | null, missingReason: string): ObservedVersion {
  if (raw === null || raw === '') return { state: 'unknown', reason: missingReason };
  const minor = minorOf(raw);
  if (minor === null) return { state: 'unknown', reason: `cannot read a MAJOR.MINOR version from "${clip(raw, 60)}"` };
  return { state: 'known', version: clip(raw, 100), minor };
}

/** Evidence form: the version, or the state. */
export function versionEvidence(version: ObservedVersion): string {
  return version.state === 'known' ? version.version : version.state;
}
