/**
 * virtgate's verdict on every fixture host, against the verdict written down by hand in
 * expected-verdicts.ts — the truth the fault suite compares published state with.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../core/checks/evaluate.ts';
import { DEFAULT_POLICY } from '../../core/checks/policy.ts';
import { probeHost } from '../../core/checks/probe-host.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import { buildHost, HOST_PROFILES, removeDevice } from '../lab/hosts/build-host.ts';
import { EXPECTED_VERDICTS, type ExpectedVerdict } from '../lab/hosts/expected-verdicts.ts';

let base = '';
let built = 0;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'virtgate-expected-'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

async function judge(profile: (typeof HOST_PROFILES)[number], withoutKvm: boolean): Promise<Verdict> {
  const host = await buildHost(path.join(base, `${profile}-${withoutKvm ? 'nokvm' : 'intact'}-${(built += 1)}`), profile);
  if (withoutKvm) await removeDevice(host.root, 'kvm');
  return evaluate(await probeHost(host.root), { state: 'disabled' }, DEFAULT_POLICY);
}

async function judged(profile: (typeof HOST_PROFILES)[number], withoutKvm: boolean): Promise<ExpectedVerdict> {
  const verdict = await judge(profile, withoutKvm);
  return { tier: verdict.tier, ready: verdict.ready, checks: Object.fromEntries(verdict.checks.map((check) => [check.id, check.status])) };
}

describe('every fixture host gets the verdict a person expects', () => {
  it.each(HOST_PROFILES)('%s', async (profile) => {
    const expected = EXPECTED_VERDICTS[profile];
    expect(await judged(profile, false)).toMatchObject(expected.intact);
    if (expected.withoutKvm) expect(await judged(profile, true)).toMatchObject(expected.withoutKvm);
  });

  it.each(HOST_PROFILES)('%s: the confidential-guest kinds that can start, and the ASIDs left', async (profile) => {
    const expected = EXPECTED_VERDICTS[profile].confidential ?? { available: [] };
    const observed = (await judge(profile, false)).checks.find((check) => check.id === 'confidential')?.observed ?? {};
    expect(observed.available ?? [], JSON.stringify(observed)).toEqual(expected.available);
    const kinds = (observed.kinds ?? {}) as Record<string, { asidsFree?: number }>;
    for (const [kind, free] of Object.entries(expected.asidsFree ?? {})) expect(kinds[kind]?.asidsFree, kind).toBe(free);
  });
});
