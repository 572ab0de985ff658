import { describe, expect, it } from 'vitest';
import { programName } from './program-name.ts';

describe('programName', () => {
  it('is virtgate when run as virtgate, through node, or with no script', () => {
    expect(programName('/usr/local/bin/virtgate')).toBe('virtgate');
    expect(programName('/srv/virtgate/dist/cli/main.js')).toBe('virtgate');
    expect(programName(undefined)).toBe('virtgate');
  });

  it('is the kubectl command a kubectl-<name> executable provides, by kubectl\'s dash and underscore rule', () => {
    expect(programName('/home/me/.krew/bin/kubectl-virtgate')).toBe('kubectl virtgate');
    expect(programName('kubectl-virtgate')).toBe('kubectl virtgate');
    expect(programName('/bin/kubectl-virt_gate')).toBe('kubectl virt-gate');
    expect(programName('/bin/kubectl-virt-gate')).toBe('kubectl virt gate');
    expect(programName('/bin/kubectl-')).toBe('virtgate');
  });
});
