/** Ways to break a file of a fixture host root in place, as a broken or hostile host would. */
import { chmod, mkdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';

export type Mutation = (root: string) => Promise<void>;

const at = (root: string, relative: string) => path.join(root, relative);

/** A FIFO where a file should be: opening it for reading would block forever. */
export const fifo = (relative: string): Mutation => async (root) => {
  await rm(at(root, relative), { recursive: true, force: true });
  await execa('mkfifo', [at(root, relative)]);
};

export const directory = (relative: string): Mutation => async (root) => {
  await rm(at(root, relative), { recursive: true, force: true });
  await mkdir(at(root, relative));
};

/** Mode 000: unreadable, but only to a process without root's DAC capabilities. */
export const noAccess = (relative: string): Mutation => (root) => chmod(at(root, relative), 0o000);

/** `head` kept, then a hole up to `bytes` (reads as NULs): huge without filling the disk. */
export const huge = (relative: string, bytes: number, head = ''): Mutation => async (root) => {
  await writeFile(at(root, relative), head);
  await truncate(at(root, relative), bytes);
};

/** The file cut `bytes` after the first occurrence of `marker`, as a short read would leave it. */
export const cutAfter = (relative: string, marker: string, bytes: number): Mutation => async (root) => {
  const text = await readFile(at(root, relative), 'utf8');
  const index = text.indexOf(marker);
  if (index < 0) throw new Error(`${relative} has no "${marker}" to cut after`);
  await writeFile(at(root, relative), text.slice(0, index + marker.length + bytes));
};

export const emptied = (relative: string): Mutation => (root) => writeFile(at(root, relative), '');

/** A symlink to itself: stat() fails with ELOOP, an error that says nothing about the device. */
export const symlinkLoop = (relative: string): Mutation => async (root) => {
  await rm(at(root, relative), { recursive: true, force: true });
  await symlink(path.basename(relative), at(root, relative));
};
