import { writeSync } from 'node:fs';
import { EXIT } from './usage-error.ts';

/**
 * Writes a command's output to file descriptor 1 directly. `process.stdout` is built on first use
 * and loads Node.js's whole streams stack, 3.5 ms of a `virtgate check` that takes 50. A reader
 * that has left (EPIPE) ends the program quietly with 0, as `process.stdout`'s handler does
 * (cli/program.ts); a descriptor someone made non-blocking that is full (EAGAIN) gets the rest
 * through `process.stdout`, which waits for it.
 */
export function writeStdout(text: string): void {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') process.exit(EXIT.ok);
    if (code !== 'EAGAIN') throw error;
    process.stdout.write(bytes.subarray(written));
  }
}
