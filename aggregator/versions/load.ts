import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { parseVersionData, VersionDataError } from './parse.ts';
import type { VersionData } from './schema.ts';

/** The data file shipped in the package; the chart mounts a replacement and passes its path. */
export const DEFAULT_VERSIONS_FILE = path.join(PACKAGE_ROOT, 'data', 'versions.yaml');

/** A version data file is small; anything bigger is not one (and must not be read into memory). */
const MAX_BYTES = 1024 * 1024;

/** Reads and validates a version data file. Throws VersionDataError with a one-line message. */
export async function loadVersionData(file: string = DEFAULT_VERSIONS_FILE): Promise<VersionData> {
  let buffer: Buffer;
  try {
    buffer = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (code ?? 'unreadable');
    throw new VersionDataError(`${file}: cannot read the version data file: ${why}`);
  }
  if (buffer.length > MAX_BYTES) throw new VersionDataError(`${file}: too large for a version data file (${buffer.length} bytes)`);
  return parseVersionData(buffer.toString('utf8'), file);
}
