import type { ObservedVersion } from '../../aggregator/gate/observed-version.ts';
import type { GateResult, GateStatus } from '../../aggregator/documents/gate.ts';

/** Colours a status word (the CLI passes its TTY-aware painter); plain text by default. */
export type StatusPainter = (status: GateStatus, text: string) => string;

const MAX_NODES_LISTED = 10;

function describe(label: string, version: ObservedVersion): string {
  return version.state === 'known' ? `${label} ${version.version}` : `${label} (${version.state})`;
}

/** Untrusted text (agents write their reports) must not break the one-line layout or drive the terminal. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
}

/**
 * `virtgate gate`'s checklist, as a person reads it in a CI log: every check with its status and
 * message, then the nodes that are not ready or unknown (worst first), then the result.
 */
export function renderChecklist(report: GateResult, paint: StatusPainter = (_status, text) => text): string {
  const { versions, readiness } = report;
  const status = (value: GateStatus, width = 0) => paint(value, value.toUpperCase().padEnd(width));
  const idWidth = Math.max(...report.checks.map((check) => check.id.length));
  const lines = [
    `virtgate gate: ${oneLine(describe('Kubernetes', versions.kubernetes))}, ${oneLine(describe('KubeVirt', versions.kubevirt))}, ${oneLine(describe('CDI', versions.cdi))}` +
      ` on ${report.evaluatedAt} (version data of ${versions.dataUpdated})`,
    '',
  ];
  for (const check of report.checks) lines.push(`  ${status(check.status, 7)}  ${check.id.padEnd(idWidth)}  ${oneLine(check.message)}`);
  const { counts } = readiness;
  lines.push('', `Nodes: ${readiness.total} (ready ${counts.ready}, emulation ${counts.emulation}, not-ready ${counts['not-ready']}, unknown ${counts.unknown})`);
  const troubled = readiness.nodes.filter((node) => node.state === 'not-ready' || node.state === 'unknown');
  const listed = troubled.slice(0, MAX_NODES_LISTED);
  const nameWidth = Math.min(40, Math.max(0, ...listed.map((node) => node.name.length)));
  for (const node of listed) lines.push(`  ${node.state.padEnd(9)}  ${node.name.padEnd(nameWidth)}  ${oneLine(node.reason)}`);
  if (troubled.length > listed.length) lines.push(`  … and ${troubled.length - listed.length} more (--json lists every node)`);
  lines.push('', `Result: ${status(report.result)} (exit ${report.exitCode})`);
  return `${lines.join('\n')}\n`;
}
