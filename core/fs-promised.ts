/**
 * The few file-system calls the host probes make, as promises over node:fs's callback API.
 * node:fs/promises loads readline and more on its first use, 1.5 ms or more of a
 * `virtgate check` that is meant to start like a shell tool (docs/development.md, Start-up);
 * the calls and their errors (code, message) are the same.
 */
import { access as accessCallback, close as closeCallback, fstat as fstatCallback, open as openCallback, read as readCallback, readdir as readdirCallback, type Stats, stat as statCallback } from 'node:fs';

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

/** A promise settled by one node:fs callback. */
function settle<T>(call: (callback: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))));
}

export const access = (file: string): Promise<void> => settle<void>((callback) => accessCallback(file, (error) => callback(error, undefined)));
export const stat = (file: string): Promise<Stats> => settle((callback) => statCallback(file, callback));
export const readdir = (dir: string): Promise<string[]> => settle((callback) => readdirCallback(dir, callback));

/** An open file, by descriptor: what the probes do with a FileHandle. */
export interface OpenFile {
  stat: () => Promise<Stats>;
  read: (buffer: Buffer, offset: number, length: number) => Promise<{ bytesRead: number }>;
  close: () => Promise<void>;
}

export async function open(file: string, flags: number): Promise<OpenFile> {
  const fd = await settle<number>((callback) => openCallback(file, flags, callback));
  return {
    stat: () => settle((callback) => fstatCallback(fd, callback)),
    read: (buffer, offset, length) => settle<number>((callback) => readCallback(fd, buffer, offset, length, null, callback)).then((bytesRead) => ({ bytesRead })),
    close: () => settle<void>((callback) => closeCallback(fd, (error) => callback(error, undefined))),
  };
}
