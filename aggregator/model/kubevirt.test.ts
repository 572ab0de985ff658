import { describe, expect, it } from 'vitest';
import { listed, OPERATOR_STATUS, rawKubeVirt } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { summariseKubeVirt } from './kubevirt.ts';
import { summariseCdi } from './cdi.ts';

describe('summariseKubeVirt', () => {
  it('tells a missing CRD from a missing CR', () => {
    expect(summariseKubeVirt({ state: 'crd-absent' })).toEqual({ state: 'crd-absent' });
    expect(summariseKubeVirt(listed())).toEqual({ state: 'cr-absent' });
    expect(summariseKubeVirt({ state: 'unknown', reason: 'forbidden' })).toEqual({ state: 'unknown', reason: 'forbidden' });
  });

  it('reads phase, version, Available, useEmulation, the eviction strategy and the workloads placement', () => {
    const summary = summariseKubeVirt(
      listed(rawKubeVirt({ phase: 'Deploying', version: 'v1.8.1', available: 'False', useEmulation: true, evictionStrategy: 'LiveMigrate', nodePlacement: { nodeSelector: { a: 'b' } } })),
    );
    expect(summary).toEqual({
      state: 'present',
      count: 1,
      cr: {
        namespace: 'kubevirt',
        name: 'kubevirt',
        phase: 'Deploying',
        observedKubeVirtVersion: 'v1.8.1',
        targetKubeVirtVersion: null,
        available: 'False',
        availableReason: 'AllComponentsReady',
        availableMessage: null,
        progressing: null,
        useEmulation: true,
        featureGates: [],
        evictionStrategy: 'LiveMigrate',
        permittedHostDevices: [],
        workloadsPlacementSet: true,
        workloadsPlacement: { state: 'valid', nodeSelector: { a: 'b' }, requiredTerms: null, tolerations: [] },
      },
    });
  });

  it("reads virt-operator's status as v1.9.0 writes it: nothing before it acts, then Deploying with a target version", () => {
    const fresh = summariseKubeVirt(listed(rawKubeVirt({ status: {} })));
    expect(fresh.state === 'present' && fresh.cr).toMatchObject({ phase: null, observedKubeVirtVersion: null, available: null, workloadsPlacementSet: false });
    const deploying = summariseKubeVirt(listed(rawKubeVirt({ status: OPERATOR_STATUS.deploying })));
    expect(deploying.state === 'present' && deploying.cr).toMatchObject({
      phase: 'Deploying',
      observedKubeVirtVersion: null,
      targetKubeVirtVersion: 'v1.9.0',
      available: 'False',
      availableReason: 'DeploymentInProgress',
      availableMessage: 'Deploying version v1.9.0 with registry quay.io/kubevirt',
      progressing: 'True',
    });
    // An empty phase (virt-operator omits it) reads as none, not as an unknown phase "".
    const empty = summariseKubeVirt(listed(rawKubeVirt({ status: { phase: '', observedKubeVirtVersion: '' } })));
    expect(empty.state === 'present' && [empty.cr.phase, empty.cr.observedKubeVirtVersion]).toEqual([null, null]);
  });

  it('counts only a boolean true as useEmulation', () => {
    const raw = rawKubeVirt();
    ((raw.spec as { configuration: { developerConfiguration: Record<string, unknown> } }).configuration.developerConfiguration).useEmulation = 'true';
    const summary = summariseKubeVirt(listed(raw));
    expect(summary.state === 'present' && summary.cr.useEmulation).toBe(false);
  });

  it('picks the deployed CR among several, whatever the list order', () => {
    const deleting = { ...rawKubeVirt({ phase: 'Deleting' }), metadata: { name: 'a', namespace: 'a' } };
    const deployed = { ...rawKubeVirt({ phase: 'Deployed' }), metadata: { name: 'z', namespace: 'z' } };
    for (const items of [[deleting, deployed], [deployed, deleting]]) {
      const summary = summariseKubeVirt(listed(...items));
      expect(summary.state === 'present' && [summary.cr.name, summary.count]).toEqual(['z', 2]);
    }
  });

  it('reads garbage items as a present CR with nothing known', () => {
    const summary = summariseKubeVirt(listed(42));
    expect(summary).toMatchObject({ state: 'present', cr: { phase: null, observedKubeVirtVersion: null, useEmulation: false } });
  });

  it('reports a malformed observation instead of throwing', () => {
    expect(summariseKubeVirt({ state: 'listed', items: 'nope' } as never).state).toBe('unknown');
    expect(summariseKubeVirt(null as never).state).toBe('unknown');
    expect(summariseKubeVirt({ state: 'unknown', reason: 'x'.repeat(10_000) }).state === 'unknown').toBe(true);
  });
});

describe('summariseCdi', () => {
  it('reads phase and observedVersion', () => {
    expect(summariseCdi(listed({ metadata: { name: 'cdi' }, status: { phase: 'Deployed', observedVersion: 'v1.64.0' } }))).toEqual({
      state: 'present',
      count: 1,
      cr: { name: 'cdi', phase: 'Deployed', observedVersion: 'v1.64.0' },
    });
    expect(summariseCdi({ state: 'crd-absent' })).toEqual({ state: 'crd-absent' });
    expect(summariseCdi(listed())).toEqual({ state: 'cr-absent' });
  });
});
