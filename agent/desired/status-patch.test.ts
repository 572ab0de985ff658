import { describe, expect, it } from 'vitest';
import type { NodeValidationStatus } from '../../core/report/schema.ts';
import { AGENT_DECLARED_STATUS_KEYS, isAgentStatusKey, statusPatch } from './status-patch.ts';

// Written by hand (docs/agent.md, the NodeValidation row): the report keys a host may not have.
const OPTIONAL_AGENT_KEYS = ['confidential', 'cpuFeatures', 'inventory', 'hostDevices'];

const fields = { ready: true, tier: 'hardware', kernel: '6.8', heartbeatAt: '2026-12-05T10:00:00.000Z' } satisfies Partial<NodeValidationStatus>;

describe('the agent status keys and their JSON Patch', () => {
  it('the agent owns every key the schema declares but vmBoot, the optional ones included', () => {
    expect(AGENT_DECLARED_STATUS_KEYS).not.toContain('vmBoot');
    expect(AGENT_DECLARED_STATUS_KEYS).toEqual(expect.arrayContaining([...OPTIONAL_AGENT_KEYS, 'ready', 'tier', 'conditions', 'heartbeatAt', 'taint']));
    expect(isAgentStatusKey('vmBoot')).toBe(false);
    expect(isAgentStatusKey('facts')).toBe(true);
  });

  it('no status yet: one add of the whole status', () => {
    expect(statusPatch(fields, true, false)).toEqual([{ op: 'add', path: '/status', value: fields }]);
  });

  it('a status exists: one add per key, and null for every declared key of the agent not given', () => {
    const operations = statusPatch(fields, true, true);
    expect(operations.filter((operation) => operation.value !== null)).toEqual(
      Object.entries(fields).map(([key, value]) => ({ op: 'add', path: `/status/${key}`, value })),
    );
    const cleared = operations.filter((operation) => operation.value === null).map((operation) => operation.path.replace('/status/', ''));
    expect(cleared).toEqual(expect.arrayContaining(OPTIONAL_AGENT_KEYS));
    expect(cleared).not.toContain('vmBoot');
    expect(cleared.filter((key) => key in fields)).toEqual([]);
  });

  it('a heartbeat: only the given keys', () => {
    expect(statusPatch({ heartbeatAt: fields.heartbeatAt }, false, true)).toEqual([{ op: 'add', path: '/status/heartbeatAt', value: fields.heartbeatAt }]);
  });

  it('never writes vmBoot, nor a key whose value is undefined (JSON would drop the value and the server answer 422)', () => {
    const withBoot = { ...fields, vmBoot: {} as never, cpuFeatures: undefined };
    for (const [whole, exists] of [[true, true], [true, false], [false, true]] as const) {
      const text = JSON.stringify(statusPatch(withBoot, whole, exists));
      expect(text).not.toContain('vmBoot');
    }
    expect(statusPatch(withBoot, false, true).map((operation) => operation.path)).not.toContain('/status/cpuFeatures');
  });
});
