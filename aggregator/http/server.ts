import Fastify, { type FastifyInstance } from 'fastify';
import { healthRoutes, type HealthRoutesOptions } from '../../core/http/health-routes.ts';
import type { GateSource } from '../service/gate-source.ts';
import { registerApi } from './api.ts';
import { registerPage } from './page.ts';

/**
 * The aggregator's HTTP server: the JSON API, /metrics, /healthz, /readyz and the page.
 * Read-only: every route is a GET. Call `ready()` (or `listen()`) before `inject()`.
 */
export function buildHttp(source: GateSource, registry: HealthRoutesOptions['registry'], options: { pageDirectory?: string; onWarning?: (message: string) => void } = {}): FastifyInstance {
  const app = Fastify({ logger: false });
  registerApi(app, source);
  // /readyz: synced, no watch broken, and a report exists.
  app.register(healthRoutes, { registry, readiness: () => source.status() });
  app.register(async (scope) => registerPage(scope, options.pageDirectory, options.onWarning));
  return app;
}
