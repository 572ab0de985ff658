/**
 * The real node lives in the node project's globalSetup process, its tests in workers: this
 * loopback endpoint lets a test kill the kubelet and start it again (the node faults), and have
 * KubeVirt installed once for the project (test/lab/kubevirt/shared.ts).
 */
import http from 'node:http';
import { inject } from 'vitest';
import type { SharedKubevirt, SharedKubevirtUse } from '../kubevirt/shared.ts';
import type { RealNode } from './real-node.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    realNodeControl: string;
  }
}

interface Lab {
  node: RealNode;
  kubevirt: SharedKubevirt;
}

/** Each answers a JSON body (or nothing). */
const ACTIONS = {
  'kubelet/kill': ({ node }: Lab) => node.killKubelet(),
  'kubelet/start': ({ node }: Lab) => node.startKubelet(),
  'kubevirt/use': ({ kubevirt }: Lab) => kubevirt.use(),
} as const;

export type NodeAction = keyof typeof ACTIONS;

export async function startNodeControl(lab: Lab): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const action = (req.url ?? '').replace(/^\//, '');
    if (req.method !== 'POST' || !Object.hasOwn(ACTIONS, action)) {
      res.writeHead(404).end(`unknown action ${action}; known: ${Object.keys(ACTIONS).join(', ')}`);
      return;
    }
    (ACTIONS[action as NodeAction](lab) as Promise<unknown>).then(
      (answer) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer ?? null)),
      (error: unknown) => res.writeHead(500).end(error instanceof Error ? error.message : String(error)),
    );
  });
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('node control server has no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** From a test: run `action` on the real node and wait until it is done. */
export async function nodeControl(action: Exclude<NodeAction, 'kubevirt/use'>): Promise<void> {
  const response = await fetch(`${inject('realNodeControl')}/${action}`, { method: 'POST', signal: AbortSignal.timeout(60_000) });
  if (!response.ok) throw new Error(`${action}: ${response.status} ${await response.text()}`);
}

/** From a test file's beforeAll: KubeVirt on the node, installed by the first file that asks, as installed for every later one. */
export async function useKubevirt(): Promise<SharedKubevirtUse> {
  const response = await fetch(`${inject('realNodeControl')}/kubevirt/use`, { method: 'POST', signal: AbortSignal.timeout(900_000) });
  const body = await response.text();
  if (!response.ok) throw new Error(`KubeVirt on the node: ${response.status} ${body}`);
  return JSON.parse(body) as SharedKubevirtUse;
}
