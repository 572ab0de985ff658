import { constants } from 'node:fs';
import { open, readdir } from '../../fs-promised.ts';
import path from 'node:path';

/** A file read under the host root: its content, its absence, or why it could not be read. */
export type FileRead =
  | { state: 'ok'; text: string; truncated: boolean }
  | { state: 'missing' }
  | { state: 'unreadable'; code: string; detail: string };

/** Upper bound for one host file: a 512-CPU cpuinfo is ~1 MiB; anything larger is not trusted whole. */
export const MAX_HOST_FILE_BYTES = 4 * 1024 * 1024;

/** Joins a host-relative path (`proc/cpuinfo`) onto the host root. */
export function hostPath(hostRoot: string, relative: string): string {
  return path.join(hostRoot, relative);
}

export function errnoCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return 'EUNKNOWN';
}

export function errorDetail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads a text file under the host root, at most `maxBytes`.
 * procfs reports size 0, so this reads in chunks instead of trusting stat.
 * Only regular files are read (procfs, sysfs and cgroupfs files all are): a FIFO would block
 * open() and read() forever and a device could stream without end, so O_NONBLOCK keeps the
 * open from waiting and fstat refuses anything else before the first read.
 */
export async function readHostFile(hostRoot: string, relative: string, maxBytes = MAX_HOST_FILE_BYTES): Promise<FileRead> {
  let handle;
  try {
    handle = await open(hostPath(hostRoot, relative), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'missing' };
    return { state: 'unreadable', code, detail: errorDetail(error) };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      const kind = info.isDirectory() ? 'a directory' : info.isFIFO() ? 'a FIFO' : info.isSocket() ? 'a socket' : 'a device';
      return { state: 'unreadable', code: info.isDirectory() ? 'EISDIR' : 'ENOTREG', detail: `${relative} is ${kind}, not a regular file` };
    }
    const chunks: Buffer[] = [];
    let total = 0;
    // No bigger than the cap: most reads are sysfs attributes capped at 64 bytes to 4 KiB.
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes));
    while (total < maxBytes) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, maxBytes - total));
      if (bytesRead === 0) return { state: 'ok', text: Buffer.concat(chunks).toString('utf8'), truncated: false };
      chunks.push(Buffer.from(chunk.subarray(0, bytesRead)));
      total += bytesRead;
    }
    return { state: 'ok', text: Buffer.concat(chunks).toString('utf8'), truncated: true };
  } catch (error) {
    return { state: 'unreadable', code: errnoCode(error), detail: errorDetail(error) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export type DirRead =
  | { state: 'ok'; entries: string[] }
  | { state: 'missing' }
  | { state: 'unreadable'; code: string; detail: string };

export async function readHostDir(hostRoot: string, relative: string): Promise<DirRead> {
  try {
    return { state: 'ok', entries: await readdir(hostPath(hostRoot, relative)) };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'missing' };
    return { state: 'unreadable', code, detail: errorDetail(error) };
  }
}

/** Describes a failed read in one line, for `unknown` observations. */
export function describeRead(relative: string, read: Exclude<FileRead | DirRead, { state: 'ok' }>): string {
  return read.state === 'missing' ? `${relative} does not exist` : `${relative} could not be read (${read.code})`;
}
