import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root, found by walking up from this file, so the same code works from the
 * TypeScript sources and from the compiled `dist/` tree.
 */
function findPackageRoot(): { root: string; version: string } {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'virtgate' && typeof manifest.version === 'string') return { root: dir, version: manifest.version };
    } catch {
      // not here; keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('virtgate: cannot find its own package.json');
    dir = parent;
  }
}

const info = findPackageRoot();
export const PACKAGE_ROOT = info.root;
export const VIRTGATE_VERSION = info.version;

/**
 * The source revision the running code was built from: `VIRTGATE_REVISION`, which the images set
 * from their `REVISION` build argument (Dockerfile.agent, Dockerfile.aggregator); "unknown" when
 * unset (a build without the argument, a run from a checkout). Only [0-9A-Za-z._-], at most 64
 * characters: it becomes a Prometheus label value.
 */
export function revisionOf(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  return /^[0-9A-Za-z._-]{1,64}$/.test(trimmed) ? trimmed : 'unknown';
}
export const VIRTGATE_REVISION = revisionOf(process.env.VIRTGATE_REVISION);
