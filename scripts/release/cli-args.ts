/** Argument parsers the release commands share (commander's argParser). */
import { InvalidArgumentError } from 'commander';
import semver from 'semver';

/** Exactly X.Y.Z or X.Y.Z-pre: the tag of the images and the chart's version, so no "v" and no build metadata. */
export function exactVersion(value: string): string {
  if (semver.valid(value) !== value || value.includes('+')) throw new InvalidArgumentError('a version like 1.2.3 or 1.2.3-rc.1 (no "v", no "+build")');
  return value;
}
