import { describe, expect, it } from 'vitest';
import { rawReport, secondsAgo } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { readReport } from './read.ts';

describe('readReport', () => {
  it('reads a valid report', () => {
    const parsed = readReport(rawReport('n1', { vendor: 'amd', heartbeatAt: secondsAgo(5) }));
    expect(parsed.state).toBe('valid');
    if (parsed.state !== 'valid') return;
    expect(parsed.report).toMatchObject({
      name: 'n1',
      nodeName: 'n1',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-n1' }],
      ready: true,
      tier: 'hardware',
      conclusive: true,
      cpuVendor: 'amd',
      kernel: '5.14',
      agentVersion: '0.1.0',
    });
    expect(parsed.report.heartbeatMs).toBe(Date.parse(secondsAgo(5)));
    expect(parsed.report.checks.map((check) => check.id)).toEqual(['dev.kvm', 'dev.tun']);
  });

  it.each([
    ['no metadata', { spec: {} }, null, /metadata/],
    ['a numeric name', { metadata: { name: 5 } }, null, /metadata\.name/],
    ['no status', { metadata: { name: 'n1' }, spec: { nodeName: 'n1' } }, 'n1', /no status/],
    ['a tier that does not exist', mutate((status) => (status.tier = 'turbo')), 'n1', /status\.tier/],
    ['ready as a string', mutate((status) => (status.ready = 'true')), 'n1', /status\.ready/],
    ['a heartbeat that is not a time', mutate((status) => (status.heartbeatAt = 'yesterday')), 'n1', /status\.heartbeatAt/],
    ['a heartbeat as a number', mutate((status) => (status.heartbeatAt = 1_780_000_000)), 'n1', /status\.heartbeatAt/],
    ['a missing spec.nodeName', { ...rawReport('n1'), spec: {} }, 'n1', /spec\.nodeName/],
  ])('marks a report with %s invalid and says why', (_name, raw, name, reason) => {
    const parsed = readReport(raw);
    expect(parsed.state).toBe('invalid');
    if (parsed.state !== 'invalid') return;
    expect(parsed.name).toBe(name);
    expect(parsed.reason).toMatch(reason);
  });

  it('drops malformed optional parts and clips long messages', () => {
    const raw = mutate((status) => {
      status.checks = [{ id: 'os.userland', status: 'warn', message: 'm'.repeat(100_000) }, { id: 'x', status: 'exploded' }, 42];
      status.cpuVendor = 'cyrix';
      status.platform = { kind: 'mainframe' };
      status.kernel = { major: 6 };
      status.conclusive = 'yes';
    });
    const parsed = readReport(raw);
    if (parsed.state !== 'valid') throw new Error(JSON.stringify(parsed));
    expect(parsed.report.checks).toHaveLength(1);
    expect(parsed.report.checks[0]?.message.length).toBeLessThanOrEqual(300);
    expect(parsed.report.cpuVendor).toBeNull();
    expect(parsed.report.platform).toBeNull();
    expect(parsed.report.kernel).toBeNull();
    expect(parsed.report.conclusive).toBeNull();
    // Each field it could not read is named (a check it dropped names the list); a missing field is not.
    expect(parsed.report.unreadFields).toEqual(['status.checks', 'status.conclusive', 'status.kernel', 'status.cpuVendor', 'status.platform']);
  });

  it('names no field for a report as the agent writes it, nor for fields an older agent did not write', () => {
    const whole = readReport(rawReport('n1'));
    const older = readReport(mutate((status) => {
      delete status.cpuVendor;
      delete status.platform;
      delete status.conclusive;
    }));
    if (whole.state !== 'valid' || older.state !== 'valid') throw new Error('both reports read');
    expect(whole.report.unreadFields).toEqual([]);
    expect(older.report.unreadFields).toEqual([]);
    expect(older.report.cpuVendor).toBeNull();
  });

  it('never throws on hostile objects', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); } });
    expect(readReport(hostile)).toEqual({ state: 'invalid', name: null, reason: 'unreadable object' });
    expect(readReport({ metadata: { name: 'n1' }, spec: { nodeName: 'n1' }, status: hostile }).state).toBe('invalid');
  });
});

function mutate(change: (status: Record<string, unknown>) => void): Record<string, unknown> {
  const raw = rawReport('n1');
  change(raw.status as Record<string, unknown>);
  return raw;
}
