import type { JsonObject } from '../../json.ts';
import type { VhvFacts, VhvLine } from '../../vhv/types.ts';
import type { CheckResult, CheckStatus } from '../types.ts';

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

export function evaluateVirtHostValidate(vhv: VhvFacts, allowEmulation: boolean): CheckResult {
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
  return { id, status: worst, message: `${counts}: ${problems.slice(0, MAX_NAMED_PROBLEMS).join('; ')}${more}`, observed };
}
