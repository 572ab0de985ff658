import path from 'node:path';
import type { JsonObject } from '../../json.ts';
import type { CheckFamily } from '../family.ts';
import { errnoCode, readHostFile } from '../host/files.ts';
import { parseVhvOutput, type VhvLine, type VhvParse } from '../host/parse/vhv-output.ts';
import type { Policy } from '../policy.ts';
import type { CheckOutcomeOf, CheckStatus } from '../outcome.ts';
import { lacksHardwareVirtualization } from '../host/virtualization-remedy.ts';
import type { CpuFamilyFacts } from './cpu.ts';
import type { DevicesFamilyFacts } from './devices.ts';

/**
 * libvirt's virt-host-validate, as a second opinion. Not read under the host root: the caller
 * runs the tool (`runVirtHostValidate`), reads a recording, or leaves it out, and passes the
 * facts beside the host's to `evaluate`.
 */
const IDS = ['virt-host-validate'] as const;
type VhvCheckId = (typeof IDS)[number];

/** What running (or reading a recording of) virt-host-validate gave. Plain data. */
export type VhvFacts =
  | { state: 'disabled' }
  | { state: 'missing'; command: string }
  | { state: 'timeout'; command: string; seconds: number }
  | { state: 'failed'; command: string; detail: string }
  | ({ state: 'ran'; source: 'tool' | 'recording'; exitCode: number | null } & VhvParse);

export interface VhvFamilyFacts {
  vhv: VhvFacts;
}

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
  // Loaded here, not at start: `virtgate check --no-vhv` starts no process and need not load it.
  const { execa } = await import('execa');
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

const STATUS_OF: Record<VhvLine['status'], CheckStatus> = { PASS: 'pass', NOTE: 'pass', WARN: 'warn', FAIL: 'fail' };
// The tool prints about 15-25 result lines. A tool flooding thousands must not blow up the check
// (the agent stores it in the NodeValidation, which etcd caps at 1.5 MiB): the verdict still
// weighs every line, but only these many are kept and named.
const MAX_OBSERVED_LINES = 64;
const MAX_NAMED_PROBLEMS = 5;
const RANK: Record<CheckStatus, number> = { pass: 0, skip: 0, warn: 1, error: 1, fail: 2 };

/** Lines about KVM acceleration, which KubeVirt's useEmulation deliberately does without. */
function isAccelerationLine(line: VhvLine): boolean {
  return /hardware virtualization|\/dev\/kvm/i.test(line.label);
}

/** What virtgate's own probes saw of KVM, to tell a repeated finding from a new one. */
type NativeKvmFacts = CpuFamilyFacts & Pick<DevicesFamilyFacts, 'kvm'>;

export function evaluateVirtHostValidate(vhv: VhvFacts, allowEmulation: boolean, native?: NativeKvmFacts): CheckOutcomeOf<VhvCheckId> {
  const id = 'virt-host-validate';
  switch (vhv.state) {
    case 'disabled':
      return { id, status: 'skip', message: 'left out (--no-vhv)' };
    case 'missing':
      return {
        id,
        status: 'skip',
        message: `${vhv.command} is not installed; the native checks still ran`,
        hint: 'Install it for a second opinion: apt-get install libvirt-clients (Debian/Ubuntu) or dnf install libvirt-client (RHEL family).',
      };
    case 'timeout':
      return {
        id,
        status: 'error',
        message: `${vhv.command} did not finish within ${vhv.seconds} s and was killed; the other checks decide`,
        observed: { timeoutSeconds: vhv.seconds },
      };
    case 'failed':
      return { id, status: 'error', message: `${vhv.command} could not run: ${vhv.detail}` };
    case 'ran':
      break;
  }
  const observed: JsonObject = {
    source: vhv.source,
    exitCode: vhv.exitCode,
    lines: vhv.lines.slice(0, MAX_OBSERVED_LINES).map((line) => ({ ...line, result: STATUS_OF[line.status] })),
    unparsedLines: vhv.unparsedCount,
    ...(vhv.lines.length > MAX_OBSERVED_LINES ? { omittedLines: vhv.lines.length - MAX_OBSERVED_LINES } : {}),
  };
  if (vhv.lines.length === 0) {
    return {
      id,
      status: 'error',
      message: `virt-host-validate printed no result line virtgate can read (${vhv.unparsedCount} other lines)`,
      hint: 'Run `LC_ALL=C virt-host-validate qemu` by hand; please report its output if it looks normal.',
      observed: { ...observed, sample: vhv.unparsed.slice(0, 5) },
    };
  }
  let worst: CheckStatus = 'pass';
  const problems: string[] = [];
  for (const line of vhv.lines) {
    let status = STATUS_OF[line.status];
    if (status === 'fail' && allowEmulation && isAccelerationLine(line)) status = 'warn';
    if (RANK[status] > RANK[worst]) worst = status;
    if (status !== 'pass') problems.push(`${line.status} ${line.label}${line.detail ? ` (${line.detail})` : ''}`);
  }
  const failing = vhv.lines.filter((line) => line.status === 'FAIL').length;
  // The tool exits 1 only on FAIL; any other disagreement means the output was not all read.
  if (vhv.exitCode === 1 && failing === 0) {
    return { id, status: 'error', message: 'virt-host-validate exited 1 but printed no FAIL line virtgate can read', observed };
  }
  const counts = `${vhv.lines.length} checks, ${failing} FAIL`;
  if (worst === 'pass') return { id, status: 'pass', message: `${counts}: all pass`, observed };
  const more = problems.length > MAX_NAMED_PROBLEMS ? `; and ${problems.length - MAX_NAMED_PROBLEMS} more` : '';
  // A warn while FAIL lines are named must say why, or the status reads as a contradiction.
  const accepted = worst !== 'fail' && failing > 0 ? ' (KVM acceleration FAIL lines count as warnings under --allow-emulation)' : '';
  const result: CheckOutcomeOf<VhvCheckId> = {
    id,
    status: worst,
    message: `${counts}${accepted}: ${problems.slice(0, MAX_NAMED_PROBLEMS).join('; ')}${more}`,
    hint: 'Each line in brackets is the tool\'s own remedy; `LC_ALL=C virt-host-validate qemu` prints them all.',
    observed,
  };
  const cause = kvmCause(vhv.lines, native);
  return cause ? { ...result, followsFrom: cause } : result;
}

/**
 * When every FAIL line is about KVM acceleration and virtgate's own checks already found KVM
 * unusable, the tool only repeats that finding: the check it follows from.
 */
function kvmCause(lines: readonly VhvLine[], native: NativeKvmFacts | undefined): string | undefined {
  if (!native) return undefined;
  const failing = lines.filter((line) => line.status === 'FAIL');
  if (failing.length === 0 || !failing.every(isAccelerationLine)) return undefined;
  if (lacksHardwareVirtualization(native.cpu)) return 'cpu.virtualization';
  const kvmOpens = native.kvm.state === 'present' && native.kvm.open === 'ok';
  return kvmOpens ? undefined : 'dev.kvm';
}

export const vhvFamily = {
  ids: IDS,
  evaluate: (facts: VhvFamilyFacts & CpuFamilyFacts & DevicesFamilyFacts, policy: Policy) => [evaluateVirtHostValidate(facts.vhv, policy.allowEmulation, facts)],
} satisfies CheckFamily;
