import type { Verdict } from '../../core/checks/verdict.ts';
import { paint, paintStatus } from './colour.ts';

/** The human-readable `virtgate check` report: one row per check, the hint under it, the verdict last. */
export function renderCheckTable(verdict: Verdict, hostRoot: string, stream?: NodeJS.WriteStream): string {
  const idWidth = Math.max(...verdict.checks.map((check) => check.id.length));
  const lines = [`virtgate check: host root ${hostRoot}`, ''];
  for (const check of verdict.checks) {
    const status = paintStatus(check.status, check.status.toUpperCase().padEnd(5), stream);
    lines.push(`  ${status}  ${check.id.padEnd(idWidth)}  ${check.message}`);
    if (check.hint && check.status !== 'pass') lines.push(`  ${' '.repeat(5)}  ${' '.repeat(idWidth)}  ${paint('dim', `→ ${check.hint}`, stream)}`);
  }
  lines.push('');
  const readiness = verdict.ready ? paint('green', 'READY', stream) : paint('red', 'NOT READY', stream);
  lines.push(`${readiness} for KubeVirt VMs: tier ${verdict.tier}${describeTier(verdict)}`);
  if (!verdict.conclusive) {
    lines.push(paint('magenta', 'A check that decides the tier could not run (status error); the tier above is not certain.', stream));
  }
  return `${lines.join('\n')}\n`;
}

function describeTier(verdict: Verdict): string {
  switch (verdict.tier) {
    case 'hardware':
      return ' (KVM acceleration)';
    case 'emulation':
      return verdict.ready
        ? ' (no usable KVM; KubeVirt useEmulation allowed: slow, test only)'
        : ' (no usable KVM; only KubeVirt useEmulation would work: pass --allow-emulation to accept it)';
    case 'none':
      return ' (no /dev/net/tun: VMs cannot run)';
  }
}
