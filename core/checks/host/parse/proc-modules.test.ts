import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProcModules } from './proc-modules.ts';

describe('parseProcModules', () => {
  it('takes the first field of each line in the kernel format', () => {
    const text = `kvm_intel 413696 0 - Live 0xffffffffc0a8e000
kvm 1363968 1 kvm_intel, Live 0xffffffffc0906000
irqbypass 12288 1 kvm, Live 0xffffffffc08f1000
vhost_net 36864 0 - Live 0xffffffffc08d3000
tun 73728 1 vhost_net, Live 0xffffffffc08b8000
`;
    expect(parseProcModules(text)).toEqual(['kvm_intel', 'kvm', 'irqbypass', 'vhost_net', 'tun']);
  });

  it('reads the zeroed addresses an unprivileged reader sees, and Loading/Unloading states', () => {
    const text = 'kvm_amd 208896 0 - Loading 0x0000000000000000\nkvm 1363968 1 kvm_amd, Unloading 0x0000000000000000 (OE)\n';
    expect(parseProcModules(text)).toEqual(['kvm_amd', 'kvm']);
  });

  it('normalises dashes to underscores, as the kernel treats them alike', () => {
    expect(parseProcModules('kvm-intel 1 0 - Live 0x0\n')).toEqual(['kvm_intel']);
  });

  it('skips blank, indented and malformed lines', () => {
    expect(parseProcModules('\n   \n kvm 1 0 - Live 0x0\nfoo/bar 1 0\n\u0000\u0001 2\nok_mod 1 0 - Live 0x0')).toEqual(['ok_mod']);
  });

  it('gives an empty list for an empty file', () => {
    expect(parseProcModules('')).toEqual([]);
  });

  it('never throws and only returns well-formed names (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.array(fc.string({ maxLength: 20 })).map((l) => l.join('\n'))), (text) => {
        for (const name of parseProcModules(text)) expect(name).toMatch(/^[A-Za-z0-9_]+$/);
      }),
      { numRuns: 400 },
    );
  });
});
