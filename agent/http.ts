import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';

export interface AgentHealth {
  /** Ready: the first probe ran, and publishing has not been failing for longer than the threshold. */
  readiness(): { ready: boolean; reason: string };
}

/** /metrics, /healthz and /readyz. Liveness never depends on the API server: a down server must not restart the agent. */
export function agentHttp(registry: Registry, health: AgentHealth): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  app.get('/healthz', async () => 'ok\n');
  app.get('/readyz', async (_request, reply) => {
    const { ready, reason } = health.readiness();
    reply.code(ready ? 200 : 503).type('text/plain');
    return `${reason}\n`;
  });
  return app;
}
