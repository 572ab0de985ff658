/**
 * A validating admission webhook that takes its time before allowing: a request it admits holds
 * its API Priority and Fairness seat for that long, and its write is in flight that long. The
 * throttling test uses it to occupy the one seat of a priority level, so that the real API server
 * rejects the other requests of that level with 429; the agent's shutdown test, to hold a Node
 * write while the agent is told to stop. Served over TLS with the control plane's certificate
 * (127.0.0.1 SAN).
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';

export interface SlowWebhook {
  url: string;
  close(): Promise<void>;
}

export async function startSlowWebhook(pkiDir: string, holdMs: number): Promise<SlowWebhook> {
  const server = https.createServer({ cert: readFileSync(path.join(pkiDir, 'server.crt')), key: readFileSync(path.join(pkiDir, 'server.key')) }, (request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const uid = (JSON.parse(body || '{}') as { request?: { uid?: string } }).request?.uid ?? '';
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true } }));
      }, holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('webhook has no address');
  return {
    url: `https://127.0.0.1:${address.port}/slow`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
