import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { CheckOutcome } from '../checks/verdict.ts';
import { type NodeValidation, nodeValidationSchema, reportCheckSchema, storedNodeValidationSchema } from './schema.ts';

const stamp = '2026-12-02T12:00:00.000Z';

function report(status: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: 'n1' }, spec: { nodeName: 'n1' }, status };
}

// Compile-time: every check result the verdict produces is a report check (typecheck fails otherwise).
const checkResultsAreReportChecks: CheckOutcome extends z.input<typeof reportCheckSchema> ? true : never = true;

describe('report schema', () => {
  it('stores what the API server must keep: partial reports, an empty taint, unknown check ids and fields', () => {
    expect(storedNodeValidationSchema.safeParse(report({ ready: true, tier: 'hardware', heartbeatAt: stamp })).success).toBe(true);
    expect(storedNodeValidationSchema.safeParse(report({ taint: {}, checks: [{ id: 'x'.repeat(200), status: 'warn', message: '', observed: { a: 1 } }], somethingNew: 1 })).success).toBe(true);
    expect(storedNodeValidationSchema.safeParse({ ...report({}), status: undefined }).success).toBe(true);
  });

  it('rejects what the API server rejects: wrong enums, long kernels, too many checks, a bad time', () => {
    for (const status of [
      { tier: 'turbo' },
      { kvm: 'maybe' },
      { kernel: 'k'.repeat(33) },
      { checks: Array.from({ length: 65 }, () => ({ id: 'dev.kvm', status: 'pass', message: '' })) },
      { checks: [{ id: 'dev.kvm', status: 'pass' }] },
      { heartbeatAt: 'yesterday' },
      { taint: { policy: 'always' } },
      { conditions: [{ type: 'Ready', status: 'Maybe', reason: 'Validated', message: '', lastTransitionTime: stamp }] },
      { conditions: [{ type: 'Ready', status: 'True', reason: 'not camel case', message: '', lastTransitionTime: stamp }] },
      { conditions: [{ type: 'Ready', status: 'True', message: '', lastTransitionTime: stamp }] },
      { observedGeneration: -1 },
    ]) {
      expect(storedNodeValidationSchema.safeParse(report(status)).success, JSON.stringify(status).slice(0, 80)).toBe(false);
    }
    expect(storedNodeValidationSchema.safeParse({ ...report({}), spec: { nodeName: 'n'.repeat(254) } }).success).toBe(false);
  });

  it('requires every status field of the agent', () => {
    expect(checkResultsAreReportChecks).toBe(true);
    const written = report({ ready: true, tier: 'hardware', heartbeatAt: stamp });
    expect(nodeValidationSchema.safeParse(written).success).toBe(false);
    const typed: NodeValidation = { apiVersion: 'virtgate.io/v1alpha1', kind: 'NodeValidation', metadata: { name: 'n1' }, spec: { nodeName: 'n1' } };
    expect(nodeValidationSchema.safeParse(typed).success).toBe(true);
  });
});
