/**
 * This machine's own root: `confidential` reports what the CPU shows (read here from /proc/cpuinfo
 * by the test itself, not by virtgate) and never changes readiness: the verdict with and without
 * the check is the same.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decide, evaluate } from '../../core/checks/evaluate.ts';
import { DEFAULT_POLICY } from '../../core/checks/policy.ts';
import { probeHost } from '../../core/checks/probe-host.ts';

describe('confidential guests on this machine', () => {
  it('says what the CPU shows, and the verdict is the same without the check', async () => {
    const flags = /^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim().split(/\s+/) ?? [];
    const verdict = evaluate(await probeHost('/', { enabled: false }), { state: 'disabled' }, DEFAULT_POLICY);
    const check = verdict.checks.find((candidate) => candidate.id === 'confidential');
    expect(check?.status).toBe('pass');
    if (!flags.includes('sev') && !flags.includes('tdx_host_platform')) {
      expect(check?.message).toBe('no confidential guests: the CPU shows neither sev nor tdx_host_platform (ordinary VMs do not need them)');
      expect(check?.observed).toMatchObject({ available: [] });
    }
    const without = decide(verdict.checks.filter((candidate) => candidate.id !== 'confidential'), DEFAULT_POLICY);
    expect({ tier: without.tier, ready: without.ready }).toEqual({ tier: verdict.tier, ready: verdict.ready });
  });
});
