import { Help } from 'commander';
import { rootCause } from '../../core/checks/consequences.ts';
import { TIER_CHECKS } from '../../core/checks/evaluate.ts';
import type { CheckOutcome, Verdict } from '../../core/checks/verdict.ts';
import { paint, paintStatus } from './colour.ts';

export interface CheckTableOptions {
  /** Where the table goes: decides colour. */
  stream?: NodeJS.WriteStream;
  /** Wrap long lines to this many columns (a terminal's width); undefined: never wrap. */
  width?: number;
}

const STATUS_WIDTH = 5;
const CONSEQUENCE_MARK = '  ↳'.padEnd(STATUS_WIDTH);
// commander's wrapper (what --help uses): at whitespace, leaves a line alone below its minimum width.
const help = new Help();

/**
 * The human-readable `virtgate check` report: one row per check, the hint under it, the verdict
 * last. A check that follows from another's failure is shown under its root cause, marked ↳ and
 * saying so, without a second remedy: one cause reads as one problem.
 */
export function renderCheckTable(verdict: Verdict, hostRoot: string, options: CheckTableOptions = {}): string {
  const { stream, width } = options;
  const idWidth = Math.max(...verdict.checks.map((check) => check.id.length));
  const indent = 2 + STATUS_WIDTH + 2 + idWidth + 2;
  // A row's continuation lines start under its message; too narrow for that, under a small indent.
  const rowColumn = width !== undefined && width - indent < 30 ? 6 : indent;
  const block = (first: string, text: string, column: number, style?: Parameters<typeof paint>[0]): string[] => {
    // commander's boxWrap leaves text alone below its minimum width (40).
    const wrapped = width === undefined ? [text] : help.boxWrap(text, Math.max(width - column, 1)).split('\n');
    return wrapped.map((line, index) => {
      const shown = style ? paint(style, line, stream) : line;
      return index === 0 ? `${first}${shown}` : `${' '.repeat(column)}${shown}`;
    });
  };

  const lines = [`virtgate check: host root ${hostRoot}`, ''];
  const consequences = new Map<string, CheckOutcome[]>();
  for (const check of verdict.checks) {
    const root = rootCause(verdict.checks, check.id);
    if (root !== check.id) consequences.set(root, [...(consequences.get(root) ?? []), check]);
  }
  for (const check of verdict.checks) {
    if (rootCause(verdict.checks, check.id) !== check.id) continue;
    const status = paintStatus(check.status, check.status.toUpperCase().padEnd(STATUS_WIDTH), stream);
    const first = `  ${status}  ${check.id.padEnd(idWidth)}  `;
    lines.push(...block(first, check.message, rowColumn));
    if (check.hint && check.status !== 'pass') lines.push(...block(' '.repeat(indent), `→ ${check.hint}`, rowColumn, 'dim'));
    for (const consequence of consequences.get(check.id) ?? []) {
      const mark = `  ${CONSEQUENCE_MARK}  ${consequence.id.padEnd(idWidth)}  `;
      lines.push(...block(mark, `follows from ${consequence.followsFrom} (${consequence.status.toUpperCase()}): ${consequence.message}`, rowColumn));
    }
  }
  lines.push('');
  const readiness = verdict.ready ? paint('green', 'READY', stream) : paint('red', 'NOT READY', stream);
  lines.push(...block('', `${readiness} for KubeVirt VMs: ${describeTier(verdict)}`, 2));
  const explanation = explainReadyDespiteFailures(verdict);
  if (explanation) lines.push(...block('', explanation, 0));
  if (!verdict.conclusive) {
    lines.push(...block('', 'A check that decides the tier could not run (status ERROR), so the tier above is only a lower bound, not a finding.', 0, 'magenta'));
  }
  return `${lines.join('\n')}\n`;
}

/** The tier in plain words: what VMs would get here. */
function describeTier(verdict: Verdict): string {
  switch (verdict.tier) {
    case 'hardware':
      return 'tier hardware (VMs run with KVM acceleration)';
    case 'emulation':
      return verdict.ready
        ? 'tier emulation (no usable KVM: VMs run only emulated, KubeVirt useEmulation, slow and for tests; accepted by --allow-emulation)'
        : 'tier emulation (no usable KVM: VMs could run only emulated, KubeVirt useEmulation; pass --allow-emulation to accept that)';
    case 'none':
      return 'tier none (no /dev/net/tun: VMs cannot get a network, so they cannot run)';
  }
}

/** READY under FAIL rows is only right when those rows are KVM's, which --allow-emulation accepts: say so. */
function explainReadyDespiteFailures(verdict: Verdict): string | undefined {
  if (!verdict.ready) return undefined;
  const failing = verdict.checks.filter((check) => check.status === 'fail').map((check) => check.id);
  if (failing.length === 0) return undefined;
  const kvmRows = failing.filter((id) => TIER_CHECKS.includes(rootCause(verdict.checks, id)));
  return `The FAIL rows above (${kvmRows.join(', ')}) say KVM acceleration is unusable; they do not block READY because --allow-emulation accepts emulated VMs.`;
}
