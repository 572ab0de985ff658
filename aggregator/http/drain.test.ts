import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionDrain } from './drain.ts';

interface Answer {
  connection: string | undefined;
  /** The local port of the client's socket: the same port means the same connection. */
  socketPort: number;
}

let app: FastifyInstance | undefined;
let agent: http.Agent | undefined;

afterEach(async () => {
  agent?.destroy();
  await app?.close();
  app = agent = undefined;
});

async function serve(): Promise<{ drain: ConnectionDrain; port: number }> {
  app = Fastify({ logger: false });
  const drain = new ConnectionDrain(app);
  app.get('/ping', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { drain, port: (app.server.address() as AddressInfo).port };
}

/** One GET through a keep-alive agent, as a polling client sends it. */
function get(port: number, keepAlive: http.Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/ping', agent: keepAlive }, (response) => {
      const socketPort = response.socket.localPort ?? -1;
      response.resume();
      response.on('end', () => resolve({ connection: response.headers.connection, socketPort }));
    });
    request.on('error', reject);
  });
}

describe('ConnectionDrain', () => {
  it('keeps connections alive until a drain starts', async () => {
    const { port, drain } = await serve();
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = await get(port, agent);
    const second = await get(port, agent);
    expect(first.connection).toBe('keep-alive');
    expect(second.socketPort).toBe(first.socketPort);
    expect(drain.openConnections).toBe(1);
  });

  it('while draining, asks a kept-alive client to close, and ends as soon as its connection is gone', async () => {
    const { port, drain } = await serve();
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = await get(port, agent);
    const started = performance.now();
    const drained = drain.drain(5);
    const during = await get(port, agent);
    expect(during.socketPort, 'the request went on the kept-alive connection').toBe(before.socketPort);
    expect(during.connection).toBe('close');
    expect(await drained).toEqual({ leftOpen: 0 });
    // Ended by the close, not by the 5 s bound.
    expect(performance.now() - started).toBeLessThan(4_000);
    // The client's next request opens a new connection (through a Service: to another pod).
    const after = await get(port, agent);
    expect(after.socketPort).not.toBe(before.socketPort);
  });

  it('ends at its bound when an idle client sends nothing, and says how many are left open', async () => {
    const { port, drain } = await serve();
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await get(port, agent);
    const started = performance.now();
    expect(await drain.drain(0.3)).toEqual({ leftOpen: 1 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('ends at once when no connection is open', async () => {
    const { drain } = await serve();
    expect(await drain.drain(5)).toEqual({ leftOpen: 0 });
  });
});
