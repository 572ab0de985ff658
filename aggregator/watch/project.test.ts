import { describe, expect, it } from 'vitest';
import { objectKey, projectCrd } from './project.ts';

describe('projectCrd', () => {
  it('reads whether the CRD is established and which versions it serves', () => {
    const crd = {
      metadata: { name: 'kubevirts.kubevirt.io' },
      spec: { versions: [{ name: 'v1', served: true }, { name: 'v1alpha3', served: false }] },
      status: { conditions: [{ type: 'NamesAccepted', status: 'True' }, { type: 'Established', status: 'True' }] },
    };
    expect(projectCrd(crd)).toEqual({ name: 'kubevirts.kubevirt.io', established: true, served: ['v1'] });
    expect(projectCrd({ ...crd, status: {} })).toEqual({ name: 'kubevirts.kubevirt.io', established: false, served: ['v1'] });
    expect(projectCrd({ spec: {} })).toBeNull();
  });

  it('never throws', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); }, ownKeys: () => { throw new Error('boom'); } });
    expect(projectCrd(hostile)).toBeNull();
  });
});

describe('objectKey', () => {
  it('is namespace/name for namespaced objects and name otherwise', () => {
    expect(objectKey({ metadata: { name: 'kubevirt', namespace: 'kubevirt' } })).toBe('kubevirt/kubevirt');
    expect(objectKey({ metadata: { name: 'node-a' } })).toBe('node-a');
    expect(objectKey({ metadata: { name: '' } })).toBeNull();
    expect(objectKey({})).toBeNull();
    expect(objectKey(null)).toBeNull();
  });
});
