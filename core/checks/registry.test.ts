import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/hosts/paths.ts';
import { DEVICE_SPECS } from './device-numbers.ts';
import { probeHost } from './probe-host.ts';
import { CHECK_IDS, FAMILIES } from './registry.ts';

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
    const context = { hostRoot: root, devices: DEVICE_SPECS };
    const keysByFamily = await Promise.all(FAMILIES.map(async (family) => ('probe' in family ? Object.keys(await family.probe(context)) : [])));
    const all = keysByFamily.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(Object.keys(await probeHost(root))).toEqual(['hostRoot', ...all]);
  });
});
