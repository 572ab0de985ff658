import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vhvFixture, VHV_FIXTURE_FILES } from '../../../../test/lab/hosts/paths.ts';
import { parseVhvLine, parseVhvOutput, VHV_STATUSES } from './vhv-output.ts';

const PAD = (label: string) => `  QEMU: ${label.padEnd(73)}`;

describe('parseVhvLine: libvirt 9.0 format', () => {
  it('reads a PASS line', () => {
    expect(parseVhvLine(`${PAD('Checking if device /dev/kvm exists')}: PASS`)).toEqual({
      driver: 'QEMU',
      label: 'Checking if device /dev/kvm exists',
      status: 'PASS',
    });
  });

  it('reads a FAIL line and keeps its reason, parentheses and quotes included', () => {
    const line = `${PAD('Checking if device /dev/kvm exists')}: FAIL (Check that the 'kvm-intel' or 'kvm-amd' modules are loaded & the BIOS has enabled virtualization)`;
    expect(parseVhvLine(line)).toEqual({
      driver: 'QEMU',
      label: 'Checking if device /dev/kvm exists',
      status: 'FAIL',
      detail: "Check that the 'kvm-intel' or 'kvm-amd' modules are loaded & the BIOS has enabled virtualization",
    });
  });

  it('reads a WARN line whose reason contains a colon and a semicolon', () => {
    const line = `${PAD('Checking for hardware virtualization')}: FAIL (Host not compatible with KVM; HW virtualization CPU features not found. Only emulated CPUs are available; performance will be significantly limited)`;
    expect(parseVhvLine(line)?.detail).toMatch(/^Host not compatible with KVM; HW/);
  });

  it("reads cgroup lines, whose labels contain quotes", () => {
    expect(parseVhvLine(`${PAD("Checking for cgroup 'memory' controller support")}: PASS`)).toMatchObject({
      label: "Checking for cgroup 'memory' controller support",
      status: 'PASS',
    });
  });
});

describe('parseVhvLine: newer libvirt formats', () => {
  it("reads quoted device paths: '/dev/kvm'", () => {
    expect(parseVhvLine(`${PAD("Checking if device '/dev/kvm' is accessible")}: PASS`)).toMatchObject({
      label: "Checking if device '/dev/kvm' is accessible",
      status: 'PASS',
    });
  });

  it('reads a detail on PASS: PASS (VMX), PASS (IVRS)', () => {
    expect(parseVhvLine(`${PAD('Checking for hardware virtualization')}: PASS (VMX)`)).toMatchObject({ status: 'PASS', detail: 'VMX' });
    expect(parseVhvLine(`${PAD('Checking for device assignment IOMMU support')}: PASS (IVRS)`)).toMatchObject({ status: 'PASS', detail: 'IVRS' });
  });

  it('reads NOTE lines', () => {
    expect(parseVhvLine(`${PAD('Checking for secure guest support')}: NOTE (Unknown if this platform has Secure Guest support)`)).toEqual({
      driver: 'QEMU',
      label: 'Checking for secure guest support',
      status: 'NOTE',
      detail: 'Unknown if this platform has Secure Guest support',
    });
  });

  it("reads the 'if IOMMU is enabled by kernel' line", () => {
    const line = `${PAD('Checking if IOMMU is enabled by kernel')}: WARN (IOMMU appears to be disabled in kernel. Add intel_iommu=on to kernel cmdline arguments)`;
    expect(parseVhvLine(line)).toMatchObject({ label: 'Checking if IOMMU is enabled by kernel', status: 'WARN', detail: expect.stringMatching(/intel_iommu=on/) });
  });

  it('reads other drivers and unpadded lines, with CR left over', () => {
    expect(parseVhvLine('LXC: Checking for Linux >= 2.6.26 : PASS\r')).toMatchObject({ driver: 'LXC', label: 'Checking for Linux >= 2.6.26', status: 'PASS' });
  });
});

describe('parseVhvLine: what it refuses', () => {
  it.each([
    ['an empty line', ''],
    ['a line without " : "', '  QEMU: Checking for hardware virtualization PASS'],
    ['an unknown status word', `${PAD('Checking for hardware virtualization')}: OK`],
    ['a lower-case status', `${PAD('Checking for hardware virtualization')}: pass`],
    ['a status followed by junk', `${PAD('Checking for hardware virtualization')}: PASS junk`],
    ['a line without a driver', 'Checking for hardware virtualization : PASS'],
    ['an error message', 'error: failed to get the hypervisor version : Permission denied'],
    ['binary', '\u0000\u0001QEMU\u0000: \u00ff : PASS\u0000'],
    ['a coloured status (a TTY capture)', `${PAD('Checking for hardware virtualization')}: \u001b[32mPASS\u001b[0m`],
    ['an absurdly long line', `  QEMU: ${'x'.repeat(5000)} : PASS`],
  ])('refuses %s', (_name, line) => {
    expect(parseVhvLine(line)).toBeUndefined();
  });
});

describe('parseVhvOutput', () => {
  it('keeps parsed lines in order, counts the others and keeps a capped sample of them', () => {
    const text = [
      `${PAD('Checking for hardware virtualization')}: PASS`,
      '',
      'some warning the tool printed',
      `${PAD('Checking if device /dev/net/tun exists')}: PASS`,
      ...Array.from({ length: 30 }, (_, n) => `noise ${n}`),
    ].join('\r\n');
    const parsed = parseVhvOutput(text);
    expect(parsed.lines.map((line) => line.label)).toEqual(['Checking for hardware virtualization', 'Checking if device /dev/net/tun exists']);
    expect(parsed.unparsedCount).toBe(31);
    expect(parsed.unparsed).toHaveLength(20);
    expect(parsed.unparsed[0]).toBe('some warning the tool printed');
  });

  it('gives no lines for garbage and for binary output', () => {
    expect(parseVhvOutput('Segmentation fault\n').lines).toEqual([]);
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, n) => (n * 97) % 256)).toString('latin1');
    const parsed = parseVhvOutput(binary);
    expect(parsed.lines).toEqual([]);
    expect(parsed.unparsedCount).toBeGreaterThan(0);
    expect(parsed.unparsed.every((line) => line.length <= 200)).toBe(true);
  });

  it.each(VHV_FIXTURE_FILES)('parses every line of the recorded libvirt 9.0 output %s', async (name) => {
    const text = await readFile(await vhvFixture(name), 'utf8');
    const expected = text.split('\n').filter((line) => line.trim() !== '').length;
    const parsed = parseVhvOutput(text);
    expect(parsed.unparsedCount).toBe(0);
    expect(parsed.lines).toHaveLength(expected);
    expect(new Set(parsed.lines.map((line) => line.driver))).toEqual(new Set(['QEMU']));
    expect(path.basename(name)).toMatch(/^libvirt-9\.0-/);
  });

  it('never throws, on any text or any bytes, and every line it returns is well-formed (property)', () => {
    const vhvLike = fc
      .array(
        fc.tuple(
          fc.constantFrom('  QEMU: ', 'LXC: ', '', 'QEMU:'),
          fc.string({ maxLength: 60 }),
          fc.constantFrom(' : ', ': ', ' :', ' : : '),
          fc.constantFrom(...VHV_STATUSES, 'pass', ''),
          fc.option(fc.string({ maxLength: 30 }).map((detail) => ` (${detail})`), { nil: '' }),
        ),
        { maxLength: 20 },
      )
      .map((rows) => rows.map((parts) => parts.join('')).join('\n'));
    const bytes = fc.uint8Array({ maxLength: 3000 }).map((array) => Buffer.from(array).toString('utf8'));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), vhvLike, bytes), (text) => {
        const parsed = parseVhvOutput(text);
        for (const line of parsed.lines) {
          expect(VHV_STATUSES).toContain(line.status);
          expect(line.driver).toMatch(/^[A-Za-z][A-Za-z0-9_-]*$/);
          expect(line.label.length).toBeGreaterThan(0);
        }
        expect(parsed.unparsed.length).toBeLessThanOrEqual(20);
        expect(parsed.unparsedCount).toBeGreaterThanOrEqual(parsed.unparsed.length);
        for (const line of text.split('\n')) parseVhvLine(line);
      }),
      { numRuns: 400 },
    );
  });
});
