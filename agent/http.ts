import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { healthRoutes } from '../core/http/health-routes.ts';

export interface AgentHealth {
  /** Ready: the first probe ran, and publishing has not been failing for longer than the threshold. */
  readiness(): { ready: boolean; reason: string };
}

/** /metrics, /healthz and /readyz. Liveness never depends on the API server: a down server must not restart the agent. */
export function agentHttp(registry: Registry, health: AgentHealth): FastifyInstance {
  const app = Fastify({ logger: false });
  app.register(healthRoutes, { registry, readiness: () => health.readiness() });
  return app;
}
