import path from 'node:path';
import { execa } from 'execa';
import { errnoCode, readHostFile } from '../host/files.ts';
import { parseVhvOutput } from './parse.ts';
import type { VhvFacts } from './types.ts';

export interface VhvRunOptions {
  /** The executable; `virt-host-validate` from PATH by default. */
  command: string;
  timeoutSeconds: number;
}

export const DEFAULT_VHV_OPTIONS: VhvRunOptions = { command: 'virt-host-validate', timeoutSeconds: 30 };

const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Runs `virt-host-validate qemu` with LC_ALL=C (its labels are translated) and a hard timeout.
 * Never `-q`: it prints nothing at all, even on FAIL.
 */
export async function runVirtHostValidate(options: VhvRunOptions = DEFAULT_VHV_OPTIONS): Promise<VhvFacts> {
  const { command, timeoutSeconds } = options;
  const result = await execa(command, ['qemu'], {
    env: { LC_ALL: 'C', LANG: 'C' },
    stdin: 'ignore',
    reject: false,
    timeout: timeoutSeconds * 1000,
    killSignal: 'SIGKILL',
    // Kill the whole process group: a wrapper script's child that still holds stdout would
    // otherwise keep the pipe open and hang virtgate past the timeout.
    killDescendants: true,
    maxBuffer: MAX_OUTPUT_BYTES,
    stripFinalNewline: false,
  });
  if (result.timedOut) return { state: 'timeout', command, seconds: timeoutSeconds };
  if (result.failed && result.exitCode === undefined) {
    const code = errnoCode(result.cause);
    if (code === 'ENOENT') return { state: 'missing', command };
    return { state: 'failed', command, detail: result.isMaxBuffer ? `printed more than ${MAX_OUTPUT_BYTES} bytes` : (result.shortMessage ?? 'unknown error') };
  }
  if (result.isMaxBuffer) return { state: 'failed', command, detail: `printed more than ${MAX_OUTPUT_BYTES} bytes` };
  return { state: 'ran', source: 'tool', exitCode: result.exitCode ?? null, ...parseVhvOutput(`${result.stdout}\n${result.stderr}`) };
}

/** Reads a recorded `virt-host-validate qemu` output (for tests and support cases). */
export async function readVhvRecording(file: string): Promise<VhvFacts> {
  // Bounded like the tool's own output: a recording is never read whole into memory.
  const read = await readHostFile('/', path.resolve(file), MAX_OUTPUT_BYTES);
  if (read.state !== 'ok') {
    const detail = read.state === 'missing' ? 'ENOENT: no such file' : `${read.code}: ${read.detail}`;
    return { state: 'failed', command: file, detail: `cannot read recording: ${detail}` };
  }
  return { state: 'ran', source: 'recording', exitCode: null, ...parseVhvOutput(read.text) };
}
