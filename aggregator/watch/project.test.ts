import { describe, expect, it } from 'vitest';
import { crdObservation, objectKey, projectCrd } from './project.ts';

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

describe('crdObservation', () => {
  it('tells an absent CRD, one that does not serve the version read, one not established, and one whose objects can be listed', () => {
    const read = (info: Parameters<typeof crdObservation>[3]) => crdObservation('kubevirts.kubevirt.io', 'kubevirt.io', 'v1', info);
    expect(read(null)).toEqual({ state: 'crd-absent' });
    expect(read({ name: 'kubevirts.kubevirt.io', established: true, served: ['v1alpha3'] })).toEqual({
      state: 'unknown',
      reason: 'CRD kubevirts.kubevirt.io exists but does not serve kubevirt.io/v1 (it serves v1alpha3); virtgate reads kubevirt.io/v1',
    });
    expect(read({ name: 'kubevirts.kubevirt.io', established: false, served: ['v1', 'v1alpha3'] })).toEqual({
      state: 'unknown',
      reason: 'CRD kubevirts.kubevirt.io exists but is not established yet (the API server has not accepted it); see its status.conditions',
    });
    expect(read({ name: 'kubevirts.kubevirt.io', established: true, served: ['v1', 'v1alpha3'] })).toBeNull();
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
