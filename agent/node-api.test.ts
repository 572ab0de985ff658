import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { NO_RESPONSE_CODE, NodeApi, resourceOfPath } from './node-api.ts';

function kubeConfig(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

describe('NodeApi write counting', () => {
  it('names the resource of a request path without object names', () => {
    expect(resourceOfPath('/api/v1/nodes/n1')).toBe('nodes');
    expect(resourceOfPath('/api/v1/nodes/n1/status')).toBe('nodes/status');
    expect(resourceOfPath('/api/v1/namespaces/default/events')).toBe('events');
    expect(resourceOfPath('/apis/virtgate.io/v1alpha1/nodevalidations')).toBe('nodevalidations');
    expect(resourceOfPath('/apis/virtgate.io/v1alpha1/nodevalidations/n1/status')).toBe('nodevalidations/status');
    expect(resourceOfPath('/')).toBe('unknown');
  });

  it('counts the code a server answered (a 403 as 403) and <error> when none answered', async () => {
    // A plain HTTP server standing in for the API server's answers: 403 for the Node, 201 for an Event.
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const forbidden = request.url?.startsWith('/api/v1/nodes/') ?? false;
        response.writeHead(forbidden ? 403 : 201, { 'content-type': 'application/json' });
        response.end(JSON.stringify(forbidden ? { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403, message: 'forbidden' } : { kind: 'Event', apiVersion: 'v1', metadata: { name: 'e' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const seen: string[] = [];
    try {
      const api = new NodeApi(kubeConfig(`http://127.0.0.1:${port}`), 'n1', 5000, (resource, code) => seen.push(`${resource} ${code}`));
      await expect(api.patchNode({ labels: { a: 'b' } })).rejects.toThrow();
      await expect(api.patchCondition({ type: 'VirtualizationReady', status: 'True' })).rejects.toThrow();
      await api.createEvent({ reason: 'R', message: 'm', type: 'Normal', nodeUid: 'u', now: new Date(0) });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(seen).toEqual(['nodes 403', 'nodes/status 403', 'events 201']);

    // Nothing listens there any more: refused, no answer.
    const refused: string[] = [];
    const gone = new NodeApi(kubeConfig(`http://127.0.0.1:${port}`), 'n1', 2000, (resource, code) => refused.push(`${resource} ${code}`));
    await expect(gone.patchNode({ taints: [] })).rejects.toThrow();
    expect(refused).toEqual([`nodes ${NO_RESPONSE_CODE}`]);
  });
});
