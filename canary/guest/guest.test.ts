/**
 * The canary guest under the real QEMU (TCG, q35, SeaBIOS, virtio-blk: what a VMI without EFI
 * gets), assembled from canary.asm as Dockerfile.canary-disk assembles it. The truth is the UUID
 * this test draws at random and hands QEMU with `-uuid` (KubeVirt's path for
 * spec.domain.firmware.uuid): the console must show exactly that UUID's digits, and a second boot
 * with another UUID must show the other, so neither a constant nor a stale console can pass.
 * A boot sector under TCG takes well under a second; QEMU or nasm missing fails, never skips.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleCanaryDisk, bootCanaryDisk, CANARY_DISK_BYTES, requireQemu } from '../../test/lab/kubevirt/canary-guest.ts';
import { CANARY_MARKER_PREFIX, consoleShowsNonce, markerLine } from './marker.ts';

let tmp: string;
let disk: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'virtgate-canary-guest-'));
  await requireQemu();
  disk = await assembleCanaryDisk(tmp);
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** A line that starts with the marker's prefix has come and ended (CR LF). */
const markerCame = (text: string) => new RegExp(`^${CANARY_MARKER_PREFIX} [^\\r\\n]*\\r\\n`, 'm').test(text);

describe('the canary guest under QEMU (TCG)', () => {
  it('is one boot sector (55 AA) then zeros, 1 MiB', async () => {
    const bytes = await readFile(disk);
    expect(bytes.length).toBe(CANARY_DISK_BYTES);
    expect(bytes.readUInt16BE(510), 'boot signature 55 AA').toBe(0x55aa);
    expect(bytes.subarray(512).every((b) => b === 0)).toBe(true);
  });

  it('prints the UUID QEMU was given, digit for digit, and a second boot prints the second UUID', async () => {
    const first = randomUUID();
    const second = randomUUID();
    const one = await bootCanaryDisk(disk, path.join(tmp, 'first.serial'), { uuid: first, done: markerCame, timeoutMs: 20_000 });
    const two = await bootCanaryDisk(disk, path.join(tmp, 'second.serial'), { uuid: second, done: markerCame, timeoutMs: 20_000 });
    process.stderr.write(`[canary guest] marker after ${one.ms} ms and ${two.ms} ms under TCG (QEMU started to marker)\n`);

    // Independent of marker.ts: the exact bytes, the UUID's own digits in the string's order.
    expect(one.console).toContain(`\r\nVIRTGATE-CANARY-OK ${first.replaceAll('-', '')}\r\n`);
    expect(two.console).toContain(`\r\nVIRTGATE-CANARY-OK ${second.replaceAll('-', '')}\r\n`);
    expect(consoleShowsNonce(one.console, first)).toBe(true);
    expect(consoleShowsNonce(two.console, second)).toBe(true);
    expect(consoleShowsNonce(one.console, second), "the first console does not pass for the second VMI's nonce").toBe(false);
    expect(consoleShowsNonce(two.console, first), "the second console does not pass for the first VMI's nonce").toBe(false);
    expect(one.console).not.toContain('NO-FWCFG');
  }, 60_000);

  it('reads the UUID byte for byte: a UUID whose bytes all differ, and QEMU without -uuid (all zeros)', async () => {
    // 00 11 22 … ff: a byte swap of any of the UUID's fields (as SMBIOS does) would show.
    const ordered = '00112233-4455-6677-8899-aabbccddeeff';
    const run = await bootCanaryDisk(disk, path.join(tmp, 'ordered.serial'), { uuid: ordered, done: markerCame, timeoutMs: 20_000 });
    expect(run.console).toContain(`${markerLine(ordered)}\r\n`);
    expect(markerLine(ordered)).toBe('VIRTGATE-CANARY-OK 00112233445566778899aabbccddeeff');

    const none = await bootCanaryDisk(disk, path.join(tmp, 'none.serial'), { done: markerCame, timeoutMs: 20_000 });
    expect(none.console).toContain(`VIRTGATE-CANARY-OK ${'0'.repeat(32)}\r\n`);
    expect(consoleShowsNonce(none.console, ordered)).toBe(false);
  }, 60_000);
});
