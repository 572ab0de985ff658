import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { Agent, type Dispatcher } from 'undici';

/**
 * One keep-alive connection pool per API server. @kubernetes/client-node 2.0 builds a new undici
 * Agent for every request, so each request pays a TLS handshake and leaves an idle socket and its
 * buffers behind; requestOptions() swaps in this shared pool instead. Authentication headers
 * (tokens, which rotate) are still set by client-node on every request.
 */
export async function connectionPool(kc: KubeConfig): Promise<Dispatcher | undefined> {
  const cluster = kc.getCurrentCluster();
  if (!cluster || cluster.proxyUrl || !cluster.server.startsWith('https:')) return undefined;
  const tls: RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  return new Agent({
    connect: {
      ca: tls.ca,
      cert: tls.cert,
      key: tls.key,
      ...(cluster.skipTLSVerify ? { rejectUnauthorized: false } : {}),
      ...(cluster.tlsServerName ? { servername: cluster.tlsServerName } : {}),
    },
    keepAliveTimeout: 30_000,
  });
}
