import { execFile } from 'node:child_process';
import { access, constants, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The README's quick start runs the installed bin (`npx virtgate check`), not cli/main.ts.
const root = path.resolve(import.meta.dirname, '..');

describe('the virtgate bin in a built checkout', () => {
  it('is executable and answers through npx, as the quick start runs it', async () => {
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string; bin: { virtgate: string } };
    const bin = path.join(root, pkg.bin.virtgate);
    await access(bin).catch(() => {
      throw new Error(`${pkg.bin.virtgate} is missing: run \`npm run build\` (npm ci does it) before the tests`);
    });
    await expect(access(bin, constants.X_OK), `${pkg.bin.virtgate} must be executable (npm run build sets it)`).resolves.toBeUndefined();
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'virtgate', '--version'], { cwd: root });
    expect(stdout.trim()).toBe(pkg.version);
  });
});
