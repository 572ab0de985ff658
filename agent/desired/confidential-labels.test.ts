import { describe, expect, it } from 'vitest';
import type { ConfidentialFacts } from '../../core/checks/families/confidential.ts';
import { exampleFacts, type HostFacts } from '../../core/checks/registry.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import { nodeKeys } from '../../core/kube/names.ts';
import { desiredLabels } from './labels.ts';
import { holdVerdict } from './verdict-hold.ts';

const keys = nodeKeys();
const CONFIDENTIAL_LABELS = ['virtgate.io/sev', 'virtgate.io/sev-es', 'virtgate.io/sev-snp', 'virtgate.io/tdx'];
const verdict: Verdict = { tier: 'hardware', ready: true, conclusive: true, checks: [] };

/** The confidential family's share of the node's desired labels. */
function confidentialLabels(facts: HostFacts, current: Record<string, string>): Record<string, string> {
  const labels = desiredLabels(keys, verdict, holdVerdict(verdict, undefined), facts, current);
  return Object.fromEntries(Object.entries(labels).filter(([key]) => CONFIDENTIAL_LABELS.includes(key)));
}
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
    expect(confidentialLabels(withConfidential({ state: 'ok', value: SNP }), {})).toEqual({
      'virtgate.io/sev': 'true',
      'virtgate.io/sev-es': 'true',
      'virtgate.io/sev-snp': 'false',
    });
  });

  it('a CPU with neither feature gets no confidential label at all', () => {
    expect(confidentialLabels(exampleFacts('/host'), {})).toEqual({});
  });

  it('when the check could not tell, the current values stay (no guess is written)', () => {
    const current = { 'virtgate.io/sev-snp': 'true', 'virtgate.io/kvm': 'true' };
    expect(confidentialLabels(withConfidential({ state: 'unknown', reason: 'EIO' }), current)).toEqual({ 'virtgate.io/sev-snp': 'true' });
    expect(confidentialLabels(withConfidential({ state: 'ok', value: { ...SNP, unreadable: ['sys/module/kvm_amd/parameters/sev (EIO)'] } }), current)).toEqual({ 'virtgate.io/sev-snp': 'true' });
  });
});
