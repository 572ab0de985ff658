import { describe, expect, it } from 'vitest';
import { readReport } from '../../../core/report/read.ts';
import { nodeValidationStatusSchema } from '../../../core/report/schema.ts';
import { agentNodeValidation } from './agent-report.ts';

const AT = new Date('2026-12-02T12:00:00Z');

describe("the bench's agent-built reports", () => {
  it('are what the schema and the readers accept, ready or not as the host kind says', () => {
    const ready = agentNodeValidation('node-a', 'uid-a', { vendor: 'amd', kernelRelease: '6.8.0-45-generic', features: ['avx', 'svm'] }, AT);
    const notReady = agentNodeValidation('node-b', 'uid-b', { kvm: false }, AT);
    expect(nodeValidationStatusSchema.safeParse(ready.status).success).toBe(true);
    expect(ready.status).toMatchObject({ ready: true, tier: 'hardware', kvm: 'pass', kernel: '6.8', cpuVendor: 'amd', cpuFeatures: ['avx', 'svm'] });
    expect(notReady.status).toMatchObject({ ready: false, kvm: 'fail', cpuVendor: 'intel' });
    const read = readReport(ready);
    expect(read.state).toBe('valid');
    expect(readReport(notReady).state).toBe('valid');
  });
});
