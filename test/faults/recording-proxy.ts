/**
 * A transparent HTTPS proxy in front of the real API server that records what passed: every
 * request's arrival time, method, path, and the server's answer (status, Retry-After, the API
 * Priority and Fairness classification headers). It injects nothing: the answers are the real
 * server's. A test may `hold` a request until it has acted itself (conflicts.test.ts lands a write
 * between the agent's read and its patch); the request then goes on unchanged. It terminates TLS with the API server's own serving certificate (so clients verify it
 * against the same CA) and opens its own TLS connection upstream; clients authenticate with
 * bearer tokens, which pass through in the Authorization header.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

/** A request as it arrived, whole, for a `hold`. */
export interface HeldRequest {
  method: string;
  path: string;
  body: Buffer;
}

export interface Exchange {
  /** When the request arrived, epoch ms. */
  at: number;
  method: string;
  path: string;
  watch: boolean;
  status: number;
  retryAfterSeconds: number | undefined;
  priorityLevelUid: string | undefined;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function forwardable(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
}

export class RecordingProxy {
  readonly url: string;
  readonly exchanges: Exchange[] = [];
  private readonly server: https.Server;

  private constructor(server: https.Server, port: number) {
    this.server = server;
    this.url = `https://127.0.0.1:${port}`;
  }

  /**
   * `pkiDir` holds the control plane's server.crt, server.key and ca.crt. `hold`, when given, sees
   * every request whole before it goes upstream, and the request waits until it resolves.
   */
  static async start(upstream: string, pkiDir: string, hold?: (request: HeldRequest) => Promise<void>): Promise<RecordingProxy> {
    const ca = readFileSync(path.join(pkiDir, 'ca.crt'));
    const agent = new https.Agent({ keepAlive: true, ca });
    const target = new URL(upstream);
    const server = https.createServer({ cert: readFileSync(path.join(pkiDir, 'server.crt')), key: readFileSync(path.join(pkiDir, 'server.key')) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address !== 'object') throw new Error('proxy has no address');
    const proxy = new RecordingProxy(server, address.port);
    server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
      const at = Date.now();
      const url = request.url ?? '/';
      const outbound = https.request(
        { host: target.hostname, port: target.port, method: request.method, path: url, headers: { ...forwardable(request.headers), host: target.host }, agent },
        (answer) => {
          const retryAfter = Number(answer.headers['retry-after']);
          proxy.exchanges.push({
            at,
            method: request.method ?? 'GET',
            path: url,
            watch: /[?&]watch=(true|1)/.test(url),
            status: answer.statusCode ?? 0,
            retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
            priorityLevelUid: [answer.headers['x-kubernetes-pf-prioritylevel-uid']].flat()[0],
          });
          response.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
          answer.pipe(response);
        },
      );
      outbound.on('error', () => response.destroy());
      response.on('close', () => outbound.destroy());
      if (!hold) {
        request.pipe(outbound);
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        hold({ method: request.method ?? 'GET', path: url, body }).then(
          () => outbound.end(body),
          () => outbound.destroy(),
        );
      });
    });
    return proxy;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
