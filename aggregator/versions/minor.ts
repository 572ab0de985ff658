import semver from 'semver';

/**
 * "1.35" from anything a cluster reports as a version: `v1.35.2`, `v1.35.2-eks-4f2a9b1`,
 * `v1.7.0-rc.1`, `1.64.0`. Null when no MAJOR.MINOR is in it. Accepts `unknown` because the
 * value comes from objects virtgate does not trust; never throws.
 */
export function minorOf(version: unknown): string | null {
  // semver refuses strings over 256 characters; so do we, before running any regex on them.
  if (typeof version !== 'string' || version.length > 256 || !/\d+\.\d+/.test(version)) return null;
  const parsed = semver.coerce(version);
  return parsed ? `${parsed.major}.${parsed.minor}` : null;
}

/** Orders "MAJOR.MINOR" strings numerically (1.9 < 1.10). */
export function compareMinor(a: string, b: string): number {
  return semver.compare(`${a}.0`, `${b}.0`);
}
