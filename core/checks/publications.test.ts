import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/lab/hosts/paths.ts';
import { VERDICT_FIELDS } from '../report/build.ts';
import { nodeValidationStatusSchema } from '../report/schema.ts';
import { evaluate } from './evaluate.ts';
import { DEFAULT_POLICY } from './policy.ts';
import { probeHost } from './probe-host.ts';
import { FAMILY_LABELS, FAMILY_REPORT_FIELDS } from './publications.ts';
import { exampleFacts, FAMILIES, type HostFacts } from './registry.ts';

// Written by the publisher or the canary, not by a verdict.
const BOOKKEEPING = ['probedAt', 'heartbeatAt', 'lastTransitionAt', 'conditions', 'observedGeneration', 'vmBoot'];

let emptyHostFacts: HostFacts;
let remove = async () => {};
beforeAll(async () => {
  const temp = await tempDir('publications');
  remove = temp.remove;
  // An empty host root: every fact missing or unknown, the case where labels must keep their values.
  emptyHostFacts = await probeHost(temp.dir);
});
afterAll(() => remove());

describe('what the check families publish', () => {
  it('gives every Node label to exactly one family, none named as the verdict labels', () => {
    const names = FAMILY_LABELS.map((label) => label.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('ready');
    expect(names).not.toContain('tier');
  });

  it('gives every status field to exactly one owner: a family or the verdict, and no field to nobody', () => {
    const familyFields = FAMILY_REPORT_FIELDS.map((entry) => entry.field);
    const owned = [...VERDICT_FIELDS, ...familyFields];
    expect(new Set(owned).size).toBe(owned.length);
    const declared = Object.keys(nodeValidationStatusSchema.shape).filter((field) => !BOOKKEEPING.includes(field));
    expect([...owned].sort()).toEqual(declared.sort());
  });

  for (const [host, facts] of [['a healthy example host', () => exampleFacts('/host')], ['an empty host', () => emptyHostFacts]] as const) {
    it(`on ${host}, each family answers for exactly the labels it declares and fills only its own fields`, () => {
      const verdict = evaluate(facts(), { state: 'disabled' }, DEFAULT_POLICY);
      const status = (id: string) => verdict.checks.find((check) => check.id === id)?.status;
      for (const family of FAMILIES) {
        if ('labels' in family) {
          expect(Object.keys(family.labels.values(facts(), status)).sort()).toEqual(family.labels.declared.map((label) => label.name).sort());
        }
        if ('report' in family) {
          for (const field of Object.keys(family.report.build(facts(), status))) expect(family.report.fields).toContain(field);
        }
      }
    });
  }

  it('on an empty host keeps every family label (undefined), never writes a guess', () => {
    const verdict = evaluate(emptyHostFacts, { state: 'disabled' }, DEFAULT_POLICY);
    const status = (id: string) => verdict.checks.find((check) => check.id === id)?.status;
    const values = Object.assign({}, ...FAMILIES.map((family) => ('labels' in family ? family.labels.values(emptyHostFacts, status) : {})));
    // tun and vhost-net are missing devices: a real answer (false); everything read from files is unknown.
    expect(values).toMatchObject({ 'cpu-vendor': undefined, nested: undefined, kernel: undefined, sev: undefined, tdx: undefined });
  });
});
