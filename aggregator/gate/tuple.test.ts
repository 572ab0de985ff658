import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import { DEFAULT_VERSIONS_FILE } from '../versions/load.ts';
import { parseVersionData } from '../versions/parse.ts';
import { observeVersion } from './observed-version.ts';
import { evaluateTuple } from './tuple.ts';
import { TUPLE_CHECK_IDS, type VersionTuple } from '../documents/gate.ts';

const DATA = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');

function tuple(kubevirt: string, kubernetes: string, cdi?: string): VersionTuple {
  return {
    kubevirt: observeVersion(kubevirt, 'none'),
    kubernetes: observeVersion(kubernetes, 'none'),
    cdi: cdi === undefined ? { state: 'absent', reason: 'no CDI version given' } : observeVersion(cdi, 'none'),
  };
}

function statuses(kubevirt: string, kubernetes: string, day: string, cdi?: string): Record<string, string> {
  const report = evaluateTuple(tuple(kubevirt, kubernetes, cdi), DATA, DEFAULT_GATE_CONFIG, new Date(`${day}T18:30:00Z`));
  return Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
}

describe('evaluateTuple', () => {
  it('returns the four tuple checks in order with the result and exit code', () => {
    const report = evaluateTuple(tuple('v1.8.2', 'v1.34.3', 'v1.65.0'), DATA, DEFAULT_GATE_CONFIG, new Date('2026-03-01T00:00:00Z'));
    expect(report.checks.map((check) => check.id)).toEqual([...TUPLE_CHECK_IDS]);
    expect(report).toMatchObject({ result: 'pass', exitCode: 0, date: '2026-03-01', dataUpdated: DATA.updated });
  });

  it('fails on the end-of-life day itself and warns the day before', () => {
    expect(statuses('1.9', '1.34', '2026-10-27')['tuple.kubernetes-eol']).toBe('fail');
    expect(statuses('1.9', '1.34', '2026-10-26')['tuple.kubernetes-eol']).toBe('warn');
  });

  it('starts warning exactly eolWarnDays before end of life', () => {
    // 2027-02-28 minus 90 days is 2026-11-30.
    expect(statuses('1.9', '1.35', '2026-11-30')['tuple.kubernetes-eol']).toBe('warn');
    expect(statuses('1.9', '1.35', '2026-11-29')['tuple.kubernetes-eol']).toBe('pass');
  });

  it('counts days by the UTC calendar day, not the time of day', () => {
    const early = evaluateTuple(tuple('1.9', '1.35'), DATA, DEFAULT_GATE_CONFIG, new Date('2026-12-02T00:00:01Z'));
    const late = evaluateTuple(tuple('1.9', '1.35'), DATA, DEFAULT_GATE_CONFIG, new Date('2026-12-02T23:59:59Z'));
    expect(early.checks).toEqual(late.checks);
  });

  it('checks every KubeVirt window edge', () => {
    for (const row of DATA.kubevirtKubernetes) {
      const [first] = row.kubernetes;
      const last = row.kubernetes.at(-1) ?? '';
      const [major, minor] = first?.split('.').map(Number) ?? [];
      expect(statuses(row.kubevirt, first ?? '', '2023-01-01')['tuple.kubernetes-supported']).toBe('pass');
      expect(statuses(row.kubevirt, last, '2023-01-01')['tuple.kubernetes-supported']).toBe('pass');
      expect(statuses(row.kubevirt, `${major}.${(minor ?? 0) - 1}`, '2023-01-01')['tuple.kubernetes-supported']).toBe('fail');
      expect(statuses(row.kubevirt, `${major}.${(minor ?? 0) + 3}`, '2023-01-01')['tuple.kubernetes-supported']).toBe('fail');
    }
  });

  it('knows the newest Kubernetes minor lies outside KubeVirt 1.9', () => {
    expect(statuses('1.9', '1.37', '2026-12-02')).toMatchObject({ 'tuple.kubernetes-supported': 'fail', 'tuple.kubernetes-eol': 'pass' });
  });

  it('pairs CDI by minor and warns on a mismatch', () => {
    expect(statuses('1.7', '1.33', '2026-01-02', 'v1.64.3')['tuple.cdi-paired']).toBe('pass');
    expect(statuses('1.7', '1.33', '2026-01-02', '1.65')['tuple.cdi-paired']).toBe('warn');
    expect(statuses('1.4', '1.30', '2025-01-02', '1.61')['tuple.cdi-paired']).toBe('unknown');
  });
});
