import type { NodeReadiness } from './readiness/types.ts';

/**
 * `virtgate_report_age_seconds{node}`: one series per node, so 5,000 at 5,000 nodes. Through a
 * prom-client Gauge every scrape re-set 5,000 label sets (hashing each) and formatted them again,
 * which was most of a scrape's time. The label part of each line depends only on the report, so it
 * is rendered once per report; a scrape only computes the ages, which move with the clock. The
 * text is exactly what prom-client renders for such a gauge (metrics.test.ts compares them).
 */
export const REPORT_AGE_NAME = 'virtgate_report_age_seconds';
export const REPORT_AGE_HELP = "Age of each node's NodeValidation heartbeat at scrape time; absent for nodes without a valid report.";

interface Rendered {
  /** `name{node="..."} ` per node with a heartbeat, in the report's order. */
  prefixes: string[];
  heartbeatsMs: number[];
}

/** prom-client's label value escaping (registry.js escapeLabelValue). */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

export class ReportAgeSeries {
  /** Keyed weakly by the report's node list: a replaced report and its prefixes go together. */
  private readonly rendered = new WeakMap<readonly NodeReadiness[], Rendered>();

  /** The metric's text block (HELP, TYPE, one line per node), as prom-client formats a gauge. */
  render(nodes: readonly NodeReadiness[] | undefined, nowMs: number): string {
    const lines = [`# HELP ${REPORT_AGE_NAME} ${REPORT_AGE_HELP}`, `# TYPE ${REPORT_AGE_NAME} gauge`];
    if (nodes) {
      const { prefixes, heartbeatsMs } = this.prepare(nodes);
      for (let i = 0; i < prefixes.length; i += 1) {
        // Rounded, finite: prom-client would print it with a template literal too (-0 as 0).
        lines.push(`${prefixes[i]}${Math.round((nowMs - (heartbeatsMs[i] ?? 0)) / 1000)}`);
      }
    }
    return lines.join('\n');
  }

  private prepare(nodes: readonly NodeReadiness[]): Rendered {
    let rendered = this.rendered.get(nodes);
    if (!rendered) {
      rendered = { prefixes: [], heartbeatsMs: [] };
      for (const node of nodes) {
        const heartbeat = node.heartbeatAt === null ? Number.NaN : Date.parse(node.heartbeatAt);
        if (!Number.isFinite(heartbeat)) continue;
        rendered.prefixes.push(`${REPORT_AGE_NAME}{node="${escapeLabelValue(node.name)}"} `);
        rendered.heartbeatsMs.push(heartbeat);
      }
      this.rendered.set(nodes, rendered);
    }
    return rendered;
  }
}
