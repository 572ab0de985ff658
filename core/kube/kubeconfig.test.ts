import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKubeConfig } from './kubeconfig.ts';

let dir = '';
const file = (name: string) => path.join(dir, name);

/** A kubeconfig with one cluster/user/context per name; current-context is the first unless set. */
function kubeconfigYaml(names: string[], current: string | null = names[0] ?? null, server = (name: string) => `https://${name}.example.test:6443`): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    ...names.map((name) => `- name: ${name}\n  cluster:\n    server: ${server(name)}`),
    'users:',
    ...names.map((name) => `- name: ${name}\n  user:\n    token: token-${name}`),
    'contexts:',
    ...names.map((name) => `- name: ${name}\n  context:\n    cluster: ${name}\n    user: ${name}`),
    ...(current ? [`current-context: ${current}`] : []),
    '',
  ].join('\n');
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'virtgate-kubeconfig-'));
  await writeFile(file('a.yaml'), kubeconfigYaml(['prod', 'shared'], 'prod'));
  // Same names as a.yaml with other servers: the first file to set a name wins.
  await writeFile(file('b.yaml'), kubeconfigYaml(['staging', 'shared'], 'staging', (name) => `https://other-${name}.example.test:6443`));
  await writeFile(file('no-current.yaml'), kubeconfigYaml(['dev'], null));
  await mkdir(file('home/.kube'), { recursive: true });
  await writeFile(file('home/.kube/config'), kubeconfigYaml(['home']));
  await mkdir(file('empty-home'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const server = (choice: Parameters<typeof loadKubeConfig>[0], env: NodeJS.ProcessEnv, home = file('empty-home')) => loadKubeConfig(choice, env, home).getCurrentCluster()?.server;

describe('loadKubeConfig: kubectl\'s order', () => {
  it('--kubeconfig wins over KUBECONFIG, ~/.kube/config and the in-cluster ServiceAccount', () => {
    expect(server({ kubeconfig: file('b.yaml') }, { KUBECONFIG: file('a.yaml'), KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }, file('home'))).toBe(
      'https://other-staging.example.test:6443',
    );
  });

  it('KUBECONFIG wins over the in-cluster ServiceAccount (a CI pod gating another cluster)', () => {
    expect(server({}, { KUBECONFIG: file('a.yaml'), KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' })).toBe('https://prod.example.test:6443');
  });

  it('merges several KUBECONFIG files: missing ones ignored, the first current-context and the first of each name win', () => {
    const env = { KUBECONFIG: [file('missing.yaml'), file('a.yaml'), '', file('b.yaml')].join(path.delimiter) };
    const kc = loadKubeConfig({}, env, file('empty-home'));
    expect(kc.getCurrentContext()).toBe('prod');
    expect(kc.getContexts().map((context) => context.name).sort()).toEqual(['prod', 'shared', 'staging']);
    expect(kc.getCluster('shared')?.server).toBe('https://shared.example.test:6443');
    expect(server({ context: 'staging' }, env)).toBe('https://other-staging.example.test:6443');
  });

  it('takes the current-context from a later file when the first sets none', () => {
    expect(loadKubeConfig({}, { KUBECONFIG: [file('no-current.yaml'), file('b.yaml')].join(path.delimiter) }, file('empty-home')).getCurrentContext()).toBe('staging');
  });

  it('falls back to ~/.kube/config, then to the in-cluster ServiceAccount', () => {
    expect(server({}, { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }, file('home'))).toBe('https://home.example.test:6443');
    // client-node's in-cluster loader reads the process environment itself.
    const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
    Object.assign(process.env, { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' });
    try {
      expect(server({}, { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' })).toBe('https://10.96.0.1:443');
    } finally {
      for (const [key, value] of [['KUBERNETES_SERVICE_HOST', saved.host], ['KUBERNETES_SERVICE_PORT', saved.port]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it('--context selects another context, and an unknown one is refused with the known ones named', () => {
    expect(server({ kubeconfig: file('a.yaml'), context: 'shared' }, {})).toBe('https://shared.example.test:6443');
    expect(() => loadKubeConfig({ kubeconfig: file('a.yaml'), context: 'nope' }, {}, file('empty-home'))).toThrow('context "nope" is not in the kubeconfig (it has: prod, shared)');
  });

  it('says what to do when there is nothing to load', () => {
    expect(() => loadKubeConfig({}, {}, file('empty-home'))).toThrow(/^no kubeconfig found: pass --kubeconfig, set KUBECONFIG or create ~\/\.kube\/config/);
    expect(() => loadKubeConfig({}, { KUBECONFIG: file('missing.yaml') }, file('empty-home'))).toThrow(/^KUBECONFIG names no file that exists/);
    expect(() => loadKubeConfig({ kubeconfig: file('no-current.yaml') }, {}, file('empty-home'))).toThrow(/no current context: pass --context NAME/);
  });
});
