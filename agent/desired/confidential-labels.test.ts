import { describe, expect, it } from 'vitest';
import type { ConfidentialFacts } from '../../core/checks/families/confidential.ts';
import { exampleFacts, type HostFacts } from '../../core/checks/registry.ts';
import { nodeKeys } from '../../core/kube/names.ts';
import { confidentialLabels } from './labels.ts';

const keys = nodeKeys();
const SNP: ConfidentialFacts = {
  arch: 'x86_64',
  flags: { sev: true, sevEs: true, sevSnp: true, tdxHostPlatform: false },
  parameters: { sev: 'Y', sevEs: 'Y', sevSnp: 'N', tdx: null },
  sevDevice: { path: 'dev/sev', state: 'present', kind: 'char', major: 10, minor: 124, expected: '10:124', open: 'ok' },
  sevMiscMinor: 124,
  asids: { sev: null, sevEs: null },
  tdxKeyIds: null,
  unreadable: [],
};
const withConfidential = (confidential: HostFacts['confidential']): HostFacts => ({ ...exampleFacts('/host'), confidential });

describe('confidential labels: one per kind, as KubeVirt names its own', () => {
  it('an AMD host with SEV-SNP off: sev and sev-es true, sev-snp false, no tdx label', () => {
    expect(confidentialLabels(keys, withConfidential({ state: 'ok', value: SNP }), {})).toEqual({
      'virtgate.io/sev': 'true',
      'virtgate.io/sev-es': 'true',
      'virtgate.io/sev-snp': 'false',
    });
  });

  it('a CPU with neither feature gets no confidential label at all', () => {
    expect(confidentialLabels(keys, exampleFacts('/host'), {})).toEqual({});
  });

  it('when the check could not tell, the current values stay (no guess is written)', () => {
    const current = { 'virtgate.io/sev-snp': 'true', 'virtgate.io/kvm': 'true' };
    expect(confidentialLabels(keys, withConfidential({ state: 'unknown', reason: 'EIO' }), current)).toEqual({ 'virtgate.io/sev-snp': 'true' });
    expect(confidentialLabels(keys, withConfidential({ state: 'ok', value: { ...SNP, unreadable: ['sys/module/kvm_amd/parameters/sev (EIO)'] } }), current)).toEqual({ 'virtgate.io/sev-snp': 'true' });
  });
});
