import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/lab/hosts/paths.ts';
import { kvmProviderOf, probeKvmProvider } from './kvm-provider.ts';

describe('kvmProviderOf', () => {
  it.each([
    [['kvm', 'kvm_intel'], 'kvm_intel'],
    [['kvm', 'kvm_amd'], 'kvm_amd'],
    [['kvm', 'kvm_pvm'], 'kvm_pvm'],
    [['kvm', 'kvm_pvm', 'kvm_intel'], 'kvm_pvm'],
    [['kvm'], 'builtin'],
    [[], 'none'],
  ] as const)('%j → %s', (seen, provider) => {
    expect(kvmProviderOf(seen)).toBe(provider);
  });
});

describe('probeKvmProvider', () => {
  let root = '';
  let remove = async () => {};
  beforeAll(async () => {
    ({ dir: root, remove } = await tempDir('kvm-provider'));
  });
  afterAll(() => remove());

  it('reads kvm_pvm from sys/module alone (this kind of host has no proc/modules)', async () => {
    const host = path.join(root, 'pvm');
    for (const name of ['kvm', 'kvm_pvm', 'tun']) await mkdir(path.join(host, 'sys/module', name), { recursive: true });
    expect(await probeKvmProvider(host)).toEqual({ state: 'ok', value: { module: 'kvm_pvm', seen: ['kvm', 'kvm_pvm'] } });
  });

  it('reads a vendor module from proc/modules alone', async () => {
    const host = path.join(root, 'intel');
    await mkdir(path.join(host, 'proc'), { recursive: true });
    await writeFile(path.join(host, 'proc/modules'), 'kvm_intel 413696 0 - Live 0x0000000000000000\nkvm 1363968 1 kvm_intel, Live 0x0000000000000000\n');
    expect(await probeKvmProvider(host)).toEqual({ state: 'ok', value: { module: 'kvm_intel', seen: ['kvm', 'kvm_intel'] } });
  });

  it('is unknown when neither source can be read', async () => {
    expect(await probeKvmProvider(path.join(root, 'empty'))).toEqual({ state: 'unknown', reason: 'neither proc/modules nor sys/module could be read' });
  });
});
