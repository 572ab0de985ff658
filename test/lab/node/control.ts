/**
 * The real node lives in the node project's globalSetup process, its tests in workers: this
 * loopback endpoint lets a test kill the kubelet and start it again (the node faults).
 */
import http from 'node:http';
import { inject } from 'vitest';
import type { RealNode } from './real-node.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    realNodeControl: string;
  }
}

const ACTIONS = {
  'kubelet/kill': (node: RealNode) => node.killKubelet(),
  'kubelet/start': (node: RealNode) => node.startKubelet(),
} as const;

export type NodeAction = keyof typeof ACTIONS;

export async function startNodeControl(node: RealNode): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const action = (req.url ?? '').replace(/^\//, '');
    if (req.method !== 'POST' || !Object.hasOwn(ACTIONS, action)) {
      res.writeHead(404).end(`unknown action ${action}; known: ${Object.keys(ACTIONS).join(', ')}`);
      return;
    }
    ACTIONS[action as NodeAction](node).then(
      () => res.writeHead(200).end('ok'),
      (error: unknown) => res.writeHead(500).end(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('node control server has no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** From a test: run `action` on the real node and wait until it is done. */
export async function nodeControl(action: NodeAction): Promise<void> {
  const response = await fetch(`${inject('realNodeControl')}/${action}`, { method: 'POST', signal: AbortSignal.timeout(60_000) });
  if (!response.ok) throw new Error(`${action}: ${response.status} ${await response.text()}`);
}
