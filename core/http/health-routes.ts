import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Readable } from 'node:stream';
import type { Registry } from 'prom-client';

export interface HealthRoutesOptions {
  /**
   * Prometheus text for /metrics; `exposition`, where the registry has it, hands the same text over
   * as a stream of kept bytes (the aggregator keeps its per-node series so).
   */
  registry: Registry & { exposition?: () => Promise<string | Readable> };
  /** /readyz: 200 with the reason when ready, 503 with it when not. */
  readiness: () => { ready: boolean; reason: string };
}

/**
 * /healthz, /readyz and /metrics, the same on the agent and the aggregator. /healthz only says
 * the process serves: it never depends on the API server, so a control-plane outage restarts
 * nothing. Register it with `app.register(healthRoutes, options)`; routes land at the root.
 */
export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app: FastifyInstance, { registry, readiness }) => {
  app.get('/healthz', async (_request, reply) => reply.type('text/plain').send('ok\n'));
  app.get('/readyz', async (_request, reply) => {
    const { ready, reason } = readiness();
    return reply.code(ready ? 200 : 503).type('text/plain').send(`${reason}\n`);
  });
  app.get('/metrics', async (_request, reply) => {
    const body = registry.exposition ? await registry.exposition() : await registry.metrics();
    return reply.header('content-type', registry.contentType).send(body);
  });
};
