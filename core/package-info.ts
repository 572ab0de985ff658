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
