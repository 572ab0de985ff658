import { describe, expect, it } from 'vitest';
import { CANARY_DISK_PATH, CANARY_MARKER_PREFIX, consoleShowsNonce, markerLine, nonceDigits } from './marker.ts';

const UUID = '6c1e2d44-5d0b-4f0e-9a52-0a3f1e7b9c21';
const OTHER = '0b4a9f3e-2c1d-4e5f-8a7b-6c5d4e3f2a10';
const DIGITS = '6c1e2d445d0b4f0e9a520a3f1e7b9c21';

describe('the canary marker', () => {
  it('is the prefix, one space and the UUID as 32 lowercase hex digits', () => {
    expect(CANARY_MARKER_PREFIX).toBe('VIRTGATE-CANARY-OK');
    expect(CANARY_DISK_PATH).toBe('/disk/canary.img');
    expect(nonceDigits(UUID)).toBe(DIGITS);
    expect(nonceDigits(UUID.toUpperCase()), 'an upper-case UUID gives the same digits').toBe(DIGITS);
    expect(markerLine(UUID)).toBe(`VIRTGATE-CANARY-OK ${DIGITS}`);
  });

  it('passes a console that shows this run’s marker on a line of its own, CR LF or LF, after firmware text', () => {
    expect(consoleShowsNonce(`SeaBIOS (version 1.16.3)\r\nBooting from Hard Disk...\r\n\r\nVIRTGATE-CANARY-OK ${DIGITS}\r\n`, UUID)).toBe(true);
    expect(consoleShowsNonce(`VIRTGATE-CANARY-OK ${DIGITS}\n`, UUID)).toBe(true);
    expect(consoleShowsNonce(`VIRTGATE-CANARY-OK ${DIGITS}`, UUID), 'the last line without its line end').toBe(true);
  });

  it('does not pass a stale marker: another run’s nonce', () => {
    expect(consoleShowsNonce(`\r\nVIRTGATE-CANARY-OK ${nonceDigits(OTHER)}\r\n`, UUID)).toBe(false);
  });

  it('does not pass the prefix alone, a cut-off nonce, the nonce inside another line, or the no-fw_cfg line', () => {
    expect(consoleShowsNonce('\r\nVIRTGATE-CANARY-OK\r\n', UUID)).toBe(false);
    expect(consoleShowsNonce('\r\nVIRTGATE-CANARY-OK \r\n', UUID)).toBe(false);
    expect(consoleShowsNonce(`\r\nVIRTGATE-CANARY-OK ${DIGITS.slice(0, 20)}`, UUID), 'a console read mid-line').toBe(false);
    expect(consoleShowsNonce(`\r\nVIRTGATE-CANARY-OK ${DIGITS}ff\r\n`, UUID)).toBe(false);
    expect(consoleShowsNonce(`echo VIRTGATE-CANARY-OK ${DIGITS}\r\n`, UUID)).toBe(false);
    expect(consoleShowsNonce(`VIRTGATE-CANARY-OK ${UUID}\r\n`, UUID), 'the UUID with dashes is not the marker').toBe(false);
    expect(consoleShowsNonce('\r\nVIRTGATE-CANARY-NO-FWCFG\r\n', UUID)).toBe(false);
    expect(consoleShowsNonce('', UUID)).toBe(false);
  });
});
