import { describe, expect, it } from 'vitest';
import { checkSettings } from '../settings/check.ts';
import { checkPod, podCheckArgs } from './pod-spec.ts';

const defaults = checkSettings.parse(checkSettings.defaults);

describe("check --node's pod", () => {
  it('passes the verdict policy and the output format on to the check in the pod, by hand-written expectation', () => {
    expect(podCheckArgs(defaults)).toEqual(['check', '--host-root=/host', '--min-kernel=4.18', '--vhv-timeout=30s']);
    const changed = { ...defaults, json: true, policy: { allowEmulation: true, minKernel: '5.14' }, vhv: { ...defaults.vhv, enabled: false }, kvmRun: false };
    expect(podCheckArgs(changed)).toEqual(['check', '--host-root=/host', '--json', '--allow-emulation', '--min-kernel=5.14', '--no-vhv', '--no-kvm-run']);
  });

  it('gets a generated name the API server accepts, even for a node name of 253 characters', () => {
    const long = `${'a'.repeat(41)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.example`.slice(0, 253);
    for (const node of ['worker-1', long, `${'x'.repeat(41)}-y.z`]) {
      const generateName = checkPod({ node, namespace: 'default', image: 'i', args: [], deadlineSeconds: 60 }).metadata?.generateName ?? '';
      // The server appends five characters and keeps the base at 58: a DNS label-like prefix that ends in "-".
      expect(generateName.length, node).toBeLessThanOrEqual(58);
      expect(generateName, node).toMatch(/^virtgate-check-[a-z0-9]([a-z0-9.-]*[a-z0-9])?-$/);
    }
  });
});
