/** One line of the benchmark table: a figure, its target, and a baseline measured in the same run. */
export interface BenchRow {
  section: string;
  figure: string;
  value: number;
  unit: string;
  /** The target, as text ("≤ 64 MiB"), and the predicate it implies. */
  target?: { text: string; met: (value: number) => boolean };
  /** A peer or a limit, measured or cited, for the ratio column. */
  baseline?: { label: string; value: number };
  /** How to read the ratio: `baseline / value` (we are faster/leaner: higher is better) or `value / baseline`. */
  ratio?: 'baseline/value' | 'value/baseline';
}

// NaN: a figure this machine cannot give (its row says why).
const format = (value: number, unit: string) =>
  Number.isNaN(value) ? 'not measurable here' : `${Number.isInteger(value) ? value : value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${unit}`.trim();

export function renderTable(rows: readonly BenchRow[]): string {
  const header = ['section', 'figure', 'measured', 'target', 'baseline (same run)', 'ratio', 'result'];
  const lines = rows.map((row) => {
    const ratio =
      row.baseline && row.ratio
        ? `${(row.ratio === 'baseline/value' ? row.baseline.value / row.value : row.value / row.baseline.value).toFixed(1)}×`
        : '';
    const result = row.target ? (row.target.met(row.value) ? 'ok' : 'MISS') : '';
    return [
      row.section,
      row.figure,
      format(row.value, row.unit),
      row.target?.text ?? '',
      row.baseline ? `${row.baseline.label}: ${format(row.baseline.value, row.unit)}` : '',
      ratio,
      result,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? '').length)));
  const render = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n');
}
