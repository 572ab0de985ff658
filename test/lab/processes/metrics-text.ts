/** Reading Prometheus text format in tests: one series' value, or every series of one metric. */

/** The value of one series, e.g. `seriesValue(text, 'virtgate_gate_result', { status: 'pass' })`. */
export function seriesValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return metricSeries(text, name).find((series) => Object.entries(labels).every(([key, value]) => series.labels.includes(`${key}="${value}"`)))?.value;
}

/** Every series of one metric: its label part (`{a="b",...}`, empty without labels) and its value. */
export function metricSeries(text: string, name: string): Array<{ labels: string; value: number }> {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => ({ labels: line.slice(name.length, line.lastIndexOf(' ')), value: Number(line.slice(line.lastIndexOf(' ') + 1)) }));
}
