import type { ExplainResult, Placement } from '../../explain/document.ts';
import { paint } from './colour.ts';

/** `virtgate explain`'s human answer: the verdict, the requirements, the node groups and their causes, the notes. */
export function renderExplanation(result: ExplainResult, options: { nodes: boolean }): string {
  const { vmi, placement, migration } = result;
  const what = `${vmi.kind === 'VirtualMachine' ? 'vm' : 'vmi'} ${vmi.namespace}/${vmi.name}`;
  const verdict =
    result.result === 'can-run'
      ? paint('green', `can run on ${placement.fitting.length} of ${placement.candidates} nodes`)
      : paint('red', `cannot run on any of ${placement.candidates} nodes`);
  const lines = [`${what}: ${verdict}${vmi.nodeName ? ` (runs on ${vmi.nodeName})` : ''}`, ''];
  lines.push("Requirements (its virt-launcher pod, as KubeVirt v1.9.0 renders it):");
  const width = Math.min(48, Math.max(...result.requirements.map((requirement) => requirement.text.length)));
  for (const requirement of result.requirements) lines.push(`  ${requirement.text.padEnd(width)}  ${requirement.because}`);
  lines.push('', ...placementLines('Where it can start', placement, options));
  if (migration) lines.push('', ...placementLines(`Where it can live-migrate from ${migration.from}`, migration, options));
  if (result.notes.length > 0) lines.push('', 'Notes:', ...result.notes.map((note) => `  - ${note}`));
  return `${lines.join('\n')}\n`;
}

function placementLines(title: string, placement: Placement, options: { nodes: boolean }): string[] {
  const fitting = placement.fitting.length;
  const lines = [`${title}: ${fitting} of ${placement.candidates} node${placement.candidates === 1 ? '' : 's'}${fitting > 0 ? `: ${names(placement.fitting, fitting)}` : ''}`];
  for (const group of placement.groups) {
    lines.push(`  ${paint('bold', `${group.count} node${group.count === 1 ? '' : 's'}`)}: ${group.cause}`);
    lines.push(`      ${group.example.node}: ${group.example.detail}`);
    if (group.remedy) lines.push(`      fix: ${group.remedy}`);
    if (group.count > 1) lines.push(`      nodes: ${names(group.nodes, group.count)}`);
  }
  if (options.nodes) {
    lines.push('  Per node:');
    for (const node of placement.nodes) {
      lines.push(`    ${node.name}: ${node.fits ? 'fits' : `${node.failures.length} unmet`} (virtgate: ${node.virtgate.state})`);
      for (const failure of node.failures) lines.push(`      - ${failure.requirement}: ${failure.cause}: ${failure.detail}`);
    }
  }
  return lines;
}

function names(shown: readonly string[], total: number): string {
  return total > shown.length ? `${shown.join(', ')} and ${total - shown.length} more` : shown.join(', ');
}
