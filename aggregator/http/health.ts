import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { ReportSource } from '../service/types.ts';

/**
 * /healthz: the process serves (never depends on the API server: a control-plane outage must
 * not restart the aggregator). /readyz: synced, no watch broken, and a report exists.
 * /metrics: Prometheus text.
 */
export function registerHealth(app: FastifyInstance, source: ReportSource, registry: Registry): void {
  app.get('/healthz', async (_request, reply) => reply.type('text/plain').send('ok\n'));
  app.get('/readyz', async (_request, reply) => {
    const { ready, reason } = source.status();
    return reply.code(ready ? 200 : 503).type('text/plain').send(`${reason}\n`);
  });
  app.get('/metrics', async (_request, reply) => {
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).send(text);
  });
}
