/** Runs the aggregator in-process against the test control plane, with an injectable clock. */
import type { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { AGGREGATOR_DEFAULTS, type AggregatorConfig } from '../../../aggregator/config.ts';
import type { GateResult } from '../../../aggregator/documents/gate.ts';
import { type GateResponse, gateResponseSchema } from '../../../aggregator/documents/api.ts';
import { Aggregator, type AggregatorOptions } from '../../../aggregator/service/aggregator.ts';
import { loadVersionData } from '../../../aggregator/versions/load.ts';
import { waitFor } from './wait.ts';

export interface Harness {
  aggregator: Aggregator;
  /** GET /api/v1/gate through fastify (inject), checked against its schema; null while 503. */
  gate(): Promise<GateResponse | null>;
  readyz(): Promise<{ status: number; body: string }>;
  /** Polls /api/v1/gate until `accept` returns true; returns that report. */
  waitForGate(what: string, accept: (report: GateResponse) => boolean, timeoutMs?: number): Promise<GateResponse>;
  stop(): Promise<void>;
}

export async function startAggregator(
  kc: KubeConfig,
  options: { now?: () => Date; config?: Partial<AggregatorConfig>; timing?: AggregatorOptions['timing']; listen?: boolean } = {},
): Promise<Harness & { url: string | null }> {
  const config: AggregatorConfig = { ...AGGREGATOR_DEFAULTS, port: 0, bindAddress: '127.0.0.1', ...options.config };
  const aggregator = new Aggregator({
    kc,
    config,
    data: await loadVersionData(config.versionsFile),
    log: pino({ level: process.env.VIRTGATE_TEST_LOG ?? 'silent' }),
    ...(options.now ? { now: options.now } : {}),
    // Fast recomputes keep the tests short; the watch timings stay the production ones unless given.
    timing: { recompute: { debounceMs: 50, maxWaitMs: 300, periodMs: 60_000 }, ...options.timing },
  });
  const url = options.listen ? await aggregator.listen() : (await aggregator.app.ready(), null);
  aggregator.start();
  const gate = async (): Promise<GateResponse | null> => {
    const response = await aggregator.app.inject({ url: '/api/v1/gate' });
    if (response.statusCode === 503) return null;
    if (response.statusCode !== 200) throw new Error(`GET /api/v1/gate: HTTP ${response.statusCode}: ${response.body}`);
    return gateResponseSchema.parse(response.json());
  };
  let last: GateResponse | null = null;
  return {
    aggregator,
    url,
    gate,
    readyz: async () => {
      const response = await aggregator.app.inject({ url: '/readyz' });
      return { status: response.statusCode, body: response.body };
    },
    waitForGate: async (what, accept, timeoutMs = 30_000) => {
      try {
        return await waitFor(
          what,
          async () => {
            last = await gate();
            return last !== null && accept(last) ? last : undefined;
          },
          timeoutMs,
          100,
        );
      } catch (error) {
        const summary = last === null ? 'no report' : JSON.stringify({ result: last.result, nodes: last.readiness.nodes.map((node) => `${node.name}:${node.state}`), checks: last.checks.map((check) => `${check.id}=${check.status}`), aggregator: last.aggregator.reason });
        throw new Error(`${error instanceof Error ? error.message : String(error)}; last report: ${summary}`);
      }
    },
    stop: () => aggregator.stop(),
  };
}

/** A check's status by id. */
export function statusOfCheck(report: GateResult, id: string): string | undefined {
  return report.checks.find((check) => check.id === id)?.status;
}

export function check(report: GateResult, id: string): GateResult['checks'][number] {
  const found = report.checks.find((entry) => entry.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
}

/** The node names a report covers, sorted. */
export function nodeNames(report: GateResult): string[] {
  return report.readiness.nodes.map((node) => node.name).sort();
}
