import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * Temporary directories a test file makes, all removed after its last test (a run leaves nothing
 * in /tmp). Call at the file's top level; the function it returns makes one directory.
 */
export function useTempDirs(): (prefix: string) => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async (prefix) => {
    const dir = await mkdtemp(path.join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
