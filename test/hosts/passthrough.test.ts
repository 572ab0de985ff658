/**
 * Device passthrough on the fixture hosts with a PCI tree, against the inventory written by hand
 * in expected-readings.ts from the kernel's viability rule; `virtgate check --json` on each; and
 * this machine's own root, whose IOMMU state is read here independently of virtgate.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../core/checks/evaluate.ts';
import { DEFAULT_POLICY } from '../../core/checks/policy.ts';
import { probeHost } from '../../core/checks/probe-host.ts';
import type { PassthroughFacts } from '../../core/checks/families/passthrough.ts';
import { runCli } from '../lab/cli.ts';
import { buildHost, type HostProfile } from '../lab/hosts/build-host.ts';
import { EXPECTED_HOST_DEVICES } from '../lab/hosts/expected-readings.ts';
import { tempDir } from '../lab/hosts/paths.ts';

const PCI_PROFILES = Object.keys(EXPECTED_HOST_DEVICES) as HostProfile[];

let base = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir: base, remove } = await tempDir('passthrough'));
});
afterAll(() => remove());

function inventoryOf(facts: { passthrough: { state: string; value?: PassthroughFacts } }): Extract<PassthroughFacts, { present: true }> {
  const observation = facts.passthrough;
  if (observation.state !== 'ok' || !observation.value?.present) throw new Error(`no passthrough inventory: ${JSON.stringify(observation)}`);
  return observation.value;
}

describe('the passthrough inventory of each PCI fixture host is the one a person works out', () => {
  it.each(PCI_PROFILES)('%s', async (profile) => {
    const expected = EXPECTED_HOST_DEVICES[profile];
    if (!expected) throw new Error(`no expected inventory for ${profile}`);
    const host = await buildHost(path.join(base, `lib-${profile}`), profile);
    const inventory = inventoryOf(await probeHost(host.root, host.devices));
    expect(inventory.iommu).toBe(true);
    expect(inventory.functions).toBe(expected.functions);
    expect(inventory.truncated).toBe(false);
    const rows = inventory.pci.map((row) => ({ selector: row.selector, state: row.state, count: row.count }));
    expect(rows).toHaveLength(expected.rows.length);
    for (const want of expected.rows) {
      const row = inventory.pci.find((candidate) => candidate.selector === want.selector && candidate.state === want.state);
      expect(row, `${want.selector} ${want.state}`).toBeDefined();
      expect(row?.count).toBe(want.count);
      for (const word of want.blockedBy ?? []) expect(row?.blocker).toContain(word);
    }
    expect(inventory.mediated.map(({ name, available, created }) => ({ name, available, created }))).toEqual(expected.mediated);
  });
});

describe('virtgate check --json on the PCI fixture hosts', () => {
  it.each(PCI_PROFILES)('%s: the report carries the inventory, the node stays ready', async (profile) => {
    const host = await buildHost(path.join(base, `cli-${profile}`), profile);
    const run = await runCli(['check', '--json', '--no-vhv', '--no-kvm-run', ...host.cliArgs]);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as { ready: boolean; checks: Array<{ id: string; status: string; message: string }>; facts: { passthrough: { state: string; value?: PassthroughFacts } } };
    expect(report.ready).toBe(true);
    const check = report.checks.find((candidate) => candidate.id === 'passthrough');
    const ready = EXPECTED_HOST_DEVICES[profile]?.rows.filter((row) => row.state === 'vfio-ready') ?? [];
    if (ready.length > 0) {
      expect(check?.status).toBe('pass');
      for (const row of ready) expect(check?.message).toContain(`${row.selector} ×${row.count}`);
    } else {
      expect(check?.status).toBe('warn');
      expect(check?.message).toContain('group-not-viable');
      expect(check?.message).toContain('snd_hda_intel');
    }
    expect(inventoryOf(report.facts).functions).toBe(EXPECTED_HOST_DEVICES[profile]?.functions);
  });
});

describe("this machine's own root", () => {
  it('says whether the IOMMU is on, and never costs readiness', async () => {
    const groups = await readdir('/sys/kernel/iommu_groups').catch(() => [] as string[]);
    const facts = await probeHost('/', undefined, { enabled: false });
    const verdict = evaluate(facts, { state: 'disabled' }, DEFAULT_POLICY);
    const check = verdict.checks.find((candidate) => candidate.id === 'passthrough');
    expect(['pass', 'warn', 'skip']).toContain(check?.status);
    const pciListed = await readdir('/sys/bus/pci/devices').catch(() => [] as string[]);
    if (pciListed.length === 0) return expect(check?.status).toBe('skip');
    const inventory = inventoryOf(facts);
    expect(inventory.functions).toBe(Math.min(pciListed.length, 2048));
    if (groups.length === 0) {
      expect(inventory.iommu).toBe(false);
      expect(check?.status).toBe('pass');
      expect(check?.message).toMatch(/^IOMMU off/);
    }
  });
});
