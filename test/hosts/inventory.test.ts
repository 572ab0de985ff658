/**
 * Each fixture host's hardware inventory is its own: collectInventory under its root (what the
 * agent does with --host-root, and so each demo node: test/integration/demo.test.ts) gives the
 * inventory written by hand in expected-inventories.ts, whatever machine the tests run on.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectInventory } from '../../core/inventory/collect.ts';
import { buildHost, HOST_PROFILES } from '../lab/hosts/build-host.ts';
import { EXPECTED_INVENTORIES } from '../lab/hosts/expected-inventories.ts';
import { tempDir } from '../lab/hosts/paths.ts';

let base = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir: base, remove } = await tempDir('inventory-hosts'));
});
afterAll(() => remove());

describe('the inventory of every fixture host', () => {
  it.each(HOST_PROFILES)('%s', async (profile) => {
    const host = await buildHost(path.join(base, profile), profile);
    expect(await collectInventory(10_000, host.root)).toEqual(EXPECTED_INVENTORIES[profile]);
  });
});
