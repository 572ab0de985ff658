import Fastify from 'fastify';
import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { healthRoutes } from './health-routes.ts';

async function serve(readiness: () => { ready: boolean; reason: string }) {
  const registry = new Registry();
  new Counter({ name: 'health_routes_test_total', help: 'A counter only this test registers.', registers: [registry] }).inc(3);
  const app = Fastify({ logger: false });
  await app.register(healthRoutes, { registry, readiness });
  await app.ready();
  return { app, registry };
}

describe('healthRoutes', () => {
  it('answers /healthz with ok whatever readiness says', async () => {
    const { app } = await serve(() => ({ ready: false, reason: 'not synced yet' }));
    const response = await app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain');
    expect(response.body).toBe('ok\n');
  });

  it('answers /readyz 200 with the reason when ready, 503 when not, asking on every request', async () => {
    let state = { ready: true, reason: 'published' };
    const { app } = await serve(() => state);
    const ready = await app.inject({ url: '/readyz' });
    expect([ready.statusCode, ready.headers['content-type'], ready.body]).toEqual([200, 'text/plain', 'published\n']);
    state = { ready: false, reason: 'watch broken: nodes' };
    const notReady = await app.inject({ url: '/readyz' });
    expect([notReady.statusCode, notReady.headers['content-type'], notReady.body]).toEqual([503, 'text/plain', 'watch broken: nodes\n']);
  });

  it("serves the registry's Prometheus text with its content type", async () => {
    const { app, registry } = await serve(() => ({ ready: true, reason: 'ok' }));
    const response = await app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(registry.contentType);
    expect(response.body).toContain('health_routes_test_total 3');
  });
});
