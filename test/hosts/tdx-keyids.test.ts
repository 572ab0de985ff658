/**
 * The TDX fixture host and its two misc-cgroup variants (profiles/confidential.ts): TDX is offered
 * only where KubeVirt v1.9.0 offers devices.kubevirt.io/tdx and a KeyID is left for the guest.
 * The expected readings are written by hand from the files, not taken from virtgate.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../core/checks/evaluate.ts';
import { DEFAULT_POLICY } from '../../core/checks/policy.ts';
import { probeHost } from '../../core/checks/probe-host.ts';
import type { CheckOutcome } from '../../core/checks/verdict.ts';
import { buildHost } from '../lab/hosts/build-host.ts';
import { TDX_KEYIDS_ALL_USED, TDX_WITHOUT_MISC_KEY } from '../lab/hosts/profiles/confidential.ts';

let base = '';
let built = 0;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'virtgate-tdx-'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

async function confidentialCheck(files: Record<string, string> = {}): Promise<CheckOutcome | undefined> {
  const host = await buildHost(path.join(base, `tdx-${(built += 1)}`), 'tdx-metal', { files });
  const verdict = evaluate(await probeHost(host.root), { state: 'disabled' }, DEFAULT_POLICY);
  return verdict.checks.find((check) => check.id === 'confidential');
}

describe('TDX needs a tdx capacity in the misc cgroup with a KeyID left', () => {
  it('the TDX host (tdx 47, none in use): TDX can start, 47 KeyIDs free', async () => {
    const check = await confidentialCheck();
    expect(check).toMatchObject({ status: 'pass', message: 'confidential guests: TDX (TDX 47 KeyIDs free)' });
    expect(check?.observed).toMatchObject({ available: ['tdx'], kinds: { tdx: { available: true, keyIdsFree: 47 } } });
  });

  it('no tdx key in misc.capacity: not TDX, because KubeVirt offers no devices.kubevirt.io/tdx', async () => {
    const check = await confidentialCheck(TDX_WITHOUT_MISC_KEY);
    expect(check?.status).toBe('pass');
    expect(check?.observed).toMatchObject({ available: [], kinds: { tdx: { available: false, reason: expect.stringMatching(/no tdx key in sys\/fs\/cgroup\/misc\.capacity.*devices\.kubevirt\.io\/tdx/) } } });
    expect(check?.message).toMatch(/^no confidential guests \(ordinary VMs do not need them\): TDX: the misc cgroup shows no tdx capacity/);
    expect(check?.hint).toContain('6.16');
  });

  it('all 47 KeyIDs in use: not TDX, the reason names misc.current', async () => {
    const check = await confidentialCheck(TDX_KEYIDS_ALL_USED);
    expect(check?.observed).toMatchObject({ available: [], kinds: { tdx: { available: false, reason: 'all 47 TDX KeyIDs are in use (misc.current)' } } });
    expect(check?.hint).toContain('holds one KeyID');
  });
});
