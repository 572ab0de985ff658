import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCpuinfo } from './cpuinfo.ts';

// Shortened but real-shaped blocks: the key/value layout and the flag names are the kernel's.
const INTEL_BLOCK = (n: number, extraFlags = 'vmx') => `processor\t: ${n}
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 143
model name\t: Intel(R) Xeon(R) Platinum 8488C
stepping\t: 8
flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep ${extraFlags} ssse3 sse4_1 sse4_2 x2apic avx2 avx512f
vmx flags\t: vnmi preemption_timer posted_intr invvpid ept_x_only ept_ad
bugs\t\t: spectre_v1 spectre_v2
bogomips\t: 4800.00
power management:

`;

const AMD_BLOCK = `processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC 9654 96-Core Processor
flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr svm extapic cr8_legacy npt lbrv nrip_save
bugs\t\t: sysret_ss_attrs spectre_v1 spectre_v2 spec_store_bypass srso

`;

const ARM64 = `processor\t: 0
BogoMIPS\t: 243.75
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp
CPU implementer\t: 0x41
CPU architecture: 8
CPU variant\t: 0x3
CPU part\t: 0xd0c
CPU revision\t: 1

processor\t: 1
BogoMIPS\t: 243.75
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp
CPU implementer\t: 0x41
CPU architecture: 8
CPU variant\t: 0x3
CPU part\t: 0xd0c
CPU revision\t: 1

`;

function ok(text: string) {
  const result = parseCpuinfo(text);
  if (result.state !== 'ok') throw new Error(`expected ok, got unknown: ${result.reason}`);
  return result.value;
}

describe('parseCpuinfo', () => {
  it('reads an Intel host: vendor, model, processor count and vmx', () => {
    const cpu = ok(INTEL_BLOCK(0) + INTEL_BLOCK(1) + INTEL_BLOCK(2));
    expect(cpu).toEqual({
      arch: 'x86_64',
      vendor: 'intel',
      model: 'Intel(R) Xeon(R) Platinum 8488C',
      processors: 3,
      vmx: true,
      svm: false,
      hypervisor: false,
      // Only the guest-relevant flags, sorted: not fpu/pae/apic (every x86 has them or the host keeps them) nor vmx.
      features: ['avx2', 'avx512f', 'cx8', 'sse4_1', 'sse4_2', 'ssse3'],
    });
  });

  it('does not take the "vmx flags" line for the flags line', () => {
    // Without vmx in `flags`, only `vmx flags:` mentions vmx; it must not count.
    const cpu = ok(INTEL_BLOCK(0, 'hypervisor'));
    expect(cpu.vmx).toBe(false);
    expect(cpu.hypervisor).toBe(true);
  });

  it('reads an AMD host with svm', () => {
    const cpu = ok(AMD_BLOCK);
    expect(cpu).toMatchObject({ arch: 'x86_64', vendor: 'amd', svm: true, vmx: false, processors: 1 });
  });

  it('knows Hygon and falls back to "other" for an unknown x86 vendor', () => {
    expect(ok(AMD_BLOCK.replace('AuthenticAMD', 'HygonGenuine')).vendor).toBe('hygon');
    expect(ok(AMD_BLOCK.replace('AuthenticAMD', 'CentaurHauls')).vendor).toBe('other');
  });

  it('matches whole flag names only', () => {
    const cpu = ok(INTEL_BLOCK(0, 'vmxx svm_lock nosvm hypervisorish'));
    expect(cpu).toMatchObject({ vmx: false, svm: false, hypervisor: false });
  });

  it('reads arm64 from its Features and implementer lines, with no x86 flags', () => {
    const cpu = ok(ARM64);
    expect(cpu).toMatchObject({ arch: 'arm64', vendor: 'arm', processors: 2, vmx: false, svm: false, hypervisor: false });
    expect(cpu.model).toBe('implementer 0x41');
  });

  it('reads the old arm64 layout that starts with a "Processor" line', () => {
    const old = `Processor\t: AArch64 Processor rev 4 (aarch64)\nprocessor\t: 0\nFeatures\t: fp asimd evtstrm\nCPU implementer\t: 0x41\nCPU architecture: 8\n\n`;
    expect(ok(old)).toMatchObject({ arch: 'arm64', processors: 1 });
  });

  it('says "unknown", not "no vmx", for a cpuinfo truncated before the flags line', () => {
    const truncated = INTEL_BLOCK(0).split('flags')[0] ?? '';
    const result = parseCpuinfo(truncated);
    expect(result.state).toBe('unknown');
    if (result.state === 'unknown') expect(result.reason).toMatch(/no flags line.*truncated/);
  });

  it('says "unknown" for a cpuinfo cut inside the flags line, which may have lost vmx', () => {
    const full = INTEL_BLOCK(0);
    const cut = full.slice(0, full.indexOf(' vmx '));
    const result = parseCpuinfo(cut);
    expect(result.state).toBe('unknown');
    if (result.state === 'unknown') expect(result.reason).toMatch(/inside the flags line/);
  });

  it('uses processor 0 when a later processor is cut off', () => {
    const text = INTEL_BLOCK(0) + INTEL_BLOCK(1).slice(0, 60);
    expect(ok(text)).toMatchObject({ vmx: true, processors: 2 });
  });

  it('says "unknown" for an empty file', () => {
    const result = parseCpuinfo('');
    expect(result).toEqual({ state: 'unknown', reason: expect.stringMatching(/no processor entries/) });
  });

  it('says "unknown" for garbage and binary content', () => {
    expect(parseCpuinfo('hello world\nthis is not cpuinfo\n').state).toBe('unknown');
    expect(parseCpuinfo('\u0000\u0001\u00ff\ufffd:\u0000\n::::\n').state).toBe('unknown');
    expect(parseCpuinfo('<html><body>404: not found</body></html>\n').state).toBe('unknown');
  });

  it('says the architecture is unsupported when processors have neither x86 nor arm64 keys', () => {
    const s390 = 'vendor_id_s390 : IBM/S390\nprocessor 0: version = FF\nprocessor : 0\n';
    const result = parseCpuinfo(s390);
    expect(result).toEqual({ state: 'unknown', reason: expect.stringMatching(/neither x86 flags nor arm64 features/) });
  });

  it('never throws and always returns a well-formed observation (property)', () => {
    const cpuinfoLike = fc
      .array(
        fc.tuple(
          fc.constantFrom('processor', 'vendor_id', 'flags', 'model name', 'Features', 'CPU implementer', 'bogus', ''),
          fc.string({ maxLength: 40 }),
          fc.constantFrom('\t: ', ':', ' : ', ''),
        ),
        { maxLength: 30 },
      )
      .map((rows) => rows.map(([key, value, sep]) => `${key}${sep}${value}`).join('\n'));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), cpuinfoLike), (text) => {
        const result = parseCpuinfo(text);
        if (result.state === 'ok') {
          expect(['x86_64', 'arm64']).toContain(result.value.arch);
          expect(result.value.processors).toBeGreaterThanOrEqual(1);
          if (result.value.arch === 'arm64') expect(result.value.vmx || result.value.svm).toBe(false);
        } else {
          expect(result.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary bytes decoded as UTF-8 (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        expect(['ok', 'unknown']).toContain(parseCpuinfo(Buffer.from(bytes).toString('utf8')).state);
      }),
      { numRuns: 300 },
    );
  });
});
