import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUEST_CODE_HEX, GUEST_STEPS, type GuestChildConfig, type GuestChildSummary, type GuestStep, type StepRecord } from './guest-steps.ts';
import { startStopwatch } from '../stopwatch.ts';

/** How long the guest may take: a working KVM halts it in milliseconds; Node's start is most of this. */
export const DEFAULT_GUEST_BOUND_MS = 5_000;

/**
 * A tiny-guest run, as JSON facts:
 * - `halted`: every step passed; the guest wrote `ioByte` to `ioPort` and halted.
 * - `failed`: `failedStep` returned an error (`errno`) or an unexpected value (`detail`).
 * - `timeout`: the child was killed at the bound; `failedStep` is the call that had not returned.
 * - `error`: the run itself could not be made (no FFI library, the child crashed): says nothing about KVM.
 */
export type GuestRun =
  | { outcome: 'halted'; steps: StepRecord[]; ioByte: number; ioPort: number; durationMs: number }
  | { outcome: 'failed'; steps: StepRecord[]; failedStep: GuestStep; errno?: string; detail?: string; durationMs: number }
  | { outcome: 'timeout'; steps: StepRecord[]; failedStep: GuestStep; boundMs: number; durationMs: number }
  | { outcome: 'error'; steps: StepRecord[]; reason: string; durationMs: number };

export interface GuestRunOptions {
  /** The device to open, as the agent sees it (the host root joined with dev/kvm). */
  devicePath: string;
  boundMs?: number;
  /** Test seams: other guest code (e.g. `ebfe`, jmp $), a missing FFI module, another child script. */
  codeHex?: string;
  ffiModule?: string;
  childScript?: string;
}

// The child beside this file, .ts when run from source and .js when built.
const thisFile = fileURLToPath(import.meta.url);
const CHILD_SCRIPT = path.join(path.dirname(thisFile), `guest-child${path.extname(thisFile)}`);

function parseLines(stdout: string): { steps: StepRecord[]; summary: GuestChildSummary | undefined } {
  const steps: StepRecord[] = [];
  let summary: GuestChildSummary | undefined;
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const record = JSON.parse(line) as StepRecord | { summary: GuestChildSummary };
      if ('summary' in record) summary = record.summary;
      else steps.push(record);
    } catch {
      // A partial last line from a killed child: the steps before it still count.
    }
  }
  return { steps, summary };
}

const nextStep = (steps: StepRecord[]): GuestStep => GUEST_STEPS[Math.min(steps.length, GUEST_STEPS.length - 1)] ?? 'load-ffi';

/** Runs the tiny guest in a child process and kills it (SIGKILL) at the bound. Never throws. */
export async function runGuest(options: GuestRunOptions): Promise<GuestRun> {
  const boundMs = options.boundMs ?? DEFAULT_GUEST_BOUND_MS;
  const config: GuestChildConfig = {
    devicePath: options.devicePath,
    codeHex: options.codeHex ?? GUEST_CODE_HEX,
    ffiModule: options.ffiModule ?? 'koffi',
  };
  const elapsed = startStopwatch();
  // Loaded here, not at start: a host whose /dev/kvm does not open never starts the child.
  const { execa } = await import('execa');
  const child = await execa(process.execPath, [options.childScript ?? CHILD_SCRIPT, JSON.stringify(config)], {
    reject: false,
    timeout: boundMs,
    killSignal: 'SIGKILL',
    forceKillAfterDelay: false,
    stdin: 'ignore',
    maxBuffer: 1024 * 1024,
  });
  const durationMs = elapsed();
  const { steps, summary } = parseLines(child.stdout);
  if (child.timedOut) return { outcome: 'timeout', steps, failedStep: nextStep(steps), boundMs, durationMs };
  const failed = steps.find((step) => !step.ok);
  if (failed?.step === 'load-ffi') return { outcome: 'error', steps, reason: `the FFI library could not be loaded: ${failed.detail ?? 'unknown error'}`, durationMs };
  if (failed) {
    return {
      outcome: 'failed',
      steps,
      failedStep: failed.step,
      ...(failed.errno ? { errno: failed.errno } : {}),
      ...(failed.detail ? { detail: failed.detail } : {}),
      durationMs,
    };
  }
  if (summary?.halted && summary.ioByte !== undefined && summary.ioPort !== undefined) {
    return { outcome: 'halted', steps, ioByte: summary.ioByte, ioPort: summary.ioPort, durationMs };
  }
  const how = child.signal ? `signal ${child.signal}` : `exit code ${String(child.exitCode)}`;
  const stderr = child.stderr.trim().split('\n').at(-1) ?? '';
  return { outcome: 'error', steps, reason: `the guest runner ended without a result (${how})${stderr ? `: ${stderr}` : ''}`, durationMs };
}
