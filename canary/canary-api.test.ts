import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { CanaryApi } from './canary-api.ts';

/**
 * A plain HTTP server stands in for the API server here: the real one answers 429 "storage is
 * (re)initializing" only for the moment after a CRD is created, which a test cannot hold open on
 * demand. Each request takes the next answer from `answers` (the last one repeats).
 */
async function withServer(answers: Array<[number, unknown]>, test: (api: CanaryApi, seen: string[]) => Promise<void>): Promise<void> {
  const seen: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      seen.push(`${request.method} ${request.url?.split('?')[0]}`);
      const [status, body] = answers[Math.min(seen.length, answers.length) - 1]!;
      response.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '1' } : {}) });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  try {
    await test(new CanaryApi(kc, 5000, 'ns'), seen);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const status = (code: number, message: string) => ({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, message });
const INITIALIZING = status(429, 'storage is (re)initializing');
const VMI_LIST = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceList', metadata: { resourceVersion: '7' }, items: [] };
const VMI = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'v', namespace: 'ns' } };
const VMIS_PATH = '/apis/kubevirt.io/v1/namespaces/ns/virtualmachineinstances';

describe('CanaryApi against an API server that answers 429 or 5xx', () => {
  it('reads again after a 429, waiting out its Retry-After', async () => {
    await withServer([[429, INITIALIZING], [200, VMI_LIST]], async (api, seen) => {
      const started = Date.now();
      expect(await api.listVmis('app=x')).toEqual({ items: [], resourceVersion: '7' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(seen).toEqual([`GET ${VMIS_PATH}`, `GET ${VMIS_PATH}`]);
    });
  });

  it('reads again after a 503, and gives up after two retries with the server\'s message', async () => {
    await withServer([[503, status(503, 'etcd is unavailable')]], async (api, seen) => {
      await expect(api.listPods('app=x')).rejects.toMatchObject({ code: 503 });
      expect(seen).toHaveLength(3);
    });
  });

  it('creates again after a 429, but not after a 500 (the VMI may exist)', async () => {
    await withServer([[429, INITIALIZING], [201, VMI]], async (api, seen) => {
      expect(await api.createVmi(VMI)).toMatchObject({ metadata: { name: 'v' } });
      expect(seen).toEqual([`POST ${VMIS_PATH}`, `POST ${VMIS_PATH}`]);
    });
    await withServer([[500, status(500, 'internal error')], [201, VMI]], async (api, seen) => {
      await expect(api.createVmi(VMI)).rejects.toMatchObject({ code: 500 });
      expect(seen).toEqual([`POST ${VMIS_PATH}`]);
    });
  });

  it('a 404 on the VMI list still says KubeVirt is not installed, at once', async () => {
    await withServer([[404, status(404, 'the server could not find the requested resource')]], async (api, seen) => {
      await expect(api.listVmis('app=x')).rejects.toThrow('KubeVirt is not installed');
      expect(seen).toHaveLength(1);
    });
  });
});
