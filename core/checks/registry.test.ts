import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/lab/hosts/paths.ts';
import { probeHost } from './probe-host.ts';
import { evaluate } from './evaluate.ts';
import { DEFAULT_POLICY } from './policy.ts';
import { CHECK_IDS, exampleFacts, FAMILIES } from './registry.ts';

let root = '';
let remove = async () => {};

beforeAll(async () => {
  ({ dir: root, remove } = await tempDir('registry'));
});
afterAll(() => remove());

describe('the family registry', () => {
  it('gives every check id to exactly one family, in registry order', () => {
    expect(new Set(CHECK_IDS).size).toBe(CHECK_IDS.length);
    expect(CHECK_IDS).toEqual(FAMILIES.flatMap((family) => family.ids));
  });

  it('lets no two families write the same facts key, and probeHost keeps every family\'s keys', async () => {
    // An empty host root: every probe answers (missing or unknown) without any fixture.
    const context = { hostRoot: root };
    const keysByFamily = await Promise.all(FAMILIES.map(async (family) => ('probe' in family ? Object.keys(await family.probe(context)) : [])));
    const all = keysByFamily.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(Object.keys(await probeHost(root))).toEqual(['hostRoot', ...all]);
  });
});

describe('family examples', () => {
  it('every family that probes gives an example with exactly the keys its probe returns, and together they are a healthy metal host', async () => {
    for (const family of FAMILIES) {
      if (!('probe' in family)) continue;
      expect('example' in family, `${family.ids.join(', ')}: no example`).toBe(true);
    }
    const facts = exampleFacts();
    // The keys a real probe of this machine returns are the keys of the examples.
    const probed = await probeHost('/');
    expect(Object.keys(facts).sort()).toEqual(Object.keys(probed).sort());
    expect(evaluate(facts, { state: 'disabled' }, DEFAULT_POLICY)).toMatchObject({ tier: 'hardware', ready: true, conclusive: true });
  });
});
