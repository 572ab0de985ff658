/**
 * Device passthrough on the fixture hosts with a PCI tree, against the inventory written by hand
 * in expected-readings.ts from the kernel's viability rule; `virtgate check --json` on each; and
 * this machine's own root, whose IOMMU state is read here independently of virtgate.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../core/checks/evaluate.ts';
import { DEFAULT_POLICY } from '../../core/checks/policy.ts';
import { probeHost } from '../../core/checks/probe-host.ts';
import { type PassthroughFacts, passthroughFamily } from '../../core/checks/families/passthrough.ts';
import { hostDevicesSchema } from '../../core/report/host-devices.ts';
import { gate } from '../../aggregator/gate/gate.ts';
import { DEFAULT_GATE_CONFIG } from '../../aggregator/model/config.ts';
import { DEFAULT_VERSIONS_FILE } from '../../aggregator/versions/load.ts';
import { parseVersionData } from '../../aggregator/versions/parse.ts';
import { healthyCluster, listed, NOW, rawKubeVirt, rawNode, rawReport } from '../lab/aggregator/cluster-fixtures.ts';
import { runCli } from '../lab/cli.ts';
import { type BuiltHost, buildHost, type HostProfile } from '../lab/hosts/build-host.ts';
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
    const inventory = inventoryOf(await probeHost(host.root));
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

/**
 * The gpu-vfio host with the A10's (0000:17:00.0, 10de:2236, vfio-pci, group 12) uevent made
 * unreadable. The suite runs as root, whom chmod 000 does not stop, so the file is replaced by
 * what stops root too: a directory (read() gives EISDIR) or a symlink to nothing (open() gives
 * ENOENT), as an unreadable sysfs attribute fails at open or at read. The expectations are the
 * hand-written gpu-vfio inventory (expected-readings.ts) with only the A10's row changed by hand.
 */
describe('the gpu-vfio host when the A10\'s uevent cannot be read', () => {
  const A10 = 'sys/bus/pci/devices/0000:17:00.0';
  const GPU_VFIO = EXPECTED_HOST_DEVICES['gpu-vfio'];

  async function brokenHost(name: string, how: 'directory' | 'dangling', keepAttributes: boolean): Promise<BuiltHost> {
    const host = await buildHost(path.join(base, name), 'gpu-vfio');
    const uevent = path.join(host.root, A10, 'uevent');
    await rm(uevent);
    if (how === 'directory') await mkdir(uevent);
    else await symlink('../../../../nowhere/uevent', uevent);
    if (!keepAttributes) for (const file of ['vendor', 'device', 'class']) await rm(path.join(host.root, A10, file));
    return host;
  }

  const rowsOf = (inventory: Extract<PassthroughFacts, { present: true }>) =>
    inventory.pci.map(({ selector, unread, idNotInUevent, state, count }) => ({ ...(selector === undefined ? {} : { selector }), ...(unread === undefined ? {} : { unread }), ...(idNotInUevent ? { idNotInUevent } : {}), state, count }));

  /** The gate on one ready node with this inventory, KubeVirt permitting the A10 (10DE:2236). */
  function a10Availability(hostDevices: unknown) {
    const data = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');
    const snapshot = healthyCluster({
      nodes: [rawNode('gpu-node', { labels: { 'virtgate.io/ready': 'true' } })],
      nodeValidations: [rawReport('gpu-node', { hostDevices })],
      kubevirt: listed(rawKubeVirt({ nodePlacement: { nodeSelector: { 'virtgate.io/ready': 'true' } }, permittedHostDevices: { pciHostDevices: [{ pciVendorSelector: '10DE:2236', resourceName: 'nvidia.com/GA102GL_A10' }] } })),
    });
    return gate(snapshot, data, DEFAULT_GATE_CONFIG, NOW).hostDevices;
  }

  it('vendor, device and class files unreadable too: the A10 is a vfio-ready function of unknown id, not 0000:0000, and provides no A10 in the gate', async () => {
    const host = await brokenHost('unread-ids', 'directory', false);
    const inventory = inventoryOf(await probeHost(host.root));
    const unread = 'uevent (EISDIR), vendor (ENOENT), device (ENOENT), class (ENOENT)';
    // Its driver still comes from the driver link (vfio-pci), so its state stays vfio-ready; only
    // the id is unknown. Rows in the inventory's order: by state, then id, an unread id last.
    expect(rowsOf(inventory)).toEqual([
      { unread, idNotInUevent: true, state: 'vfio-ready', count: 1 },
      { selector: '10DE:1EB8', state: 'bound-to-host-driver', count: 1 },
      { selector: '8086:1572', state: 'bound-to-host-driver', count: 2 },
      { selector: '8086:347A', state: 'bound-to-host-driver', count: 1 },
      { selector: '8086:09A2', state: 'unbound', count: 1 },
    ]);
    expect(JSON.stringify(inventory)).not.toContain('0000:0000');
    expect(inventory.pci.find((row) => row.unread === unread)?.class).toBeUndefined();
    const [check] = passthroughFamily.evaluate({ passthrough: { state: 'ok', value: inventory } });
    expect(check?.message).toBe(
      `IOMMU on; 1 PCI function(s) ready for VFIO passthrough: id unread (${unread}) ×1; mediated types: GRID_T4-1Q (16 available, 0 created); 1 PCI function(s) whose id or class could not be read (${unread}), counted under no vendor:device`,
    );
    // The report schema (and so the CRD) takes the row as it is.
    const { present: _present, ...hostDevices } = inventory;
    expect(hostDevicesSchema.safeParse(hostDevices).success).toBe(true);

    expect(a10Availability(hostDevices)).toEqual([expect.objectContaining({ resource: 'nvidia.com/GA102GL_A10', nodes: 0, devices: 0, reasons: ['gpu-node: device absent among the functions whose id was read; 1 function(s) of unread id could be it'] })]);
  });

  it('vendor, device and class files readable: the A10 keeps its id and class, but KubeVirt, which reads the id only from uevent, would not offer it', async () => {
    const host = await brokenHost('attribute-ids', 'dangling', true);
    const inventory = inventoryOf(await probeHost(host.root));
    expect(inventory.functions).toBe(GPU_VFIO?.functions);
    expect(rowsOf(inventory)).toEqual([
      { selector: '10DE:2236', unread: 'uevent (ENOENT)', idNotInUevent: true, state: 'vfio-ready', count: 1 },
      { selector: '10DE:1EB8', state: 'bound-to-host-driver', count: 1 },
      { selector: '8086:1572', state: 'bound-to-host-driver', count: 2 },
      { selector: '8086:347A', state: 'bound-to-host-driver', count: 1 },
      { selector: '8086:09A2', state: 'unbound', count: 1 },
    ]);
    expect(inventory.pci.find((row) => row.selector === '10DE:2236')?.class).toBe('030200');
    const { present: _present, ...hostDevices } = inventory;
    // virt-handler's discoverPermittedHostPCIDevices skips a function whose uevent it cannot read (GetDevicePCIID).
    expect(a10Availability(hostDevices)).toEqual([
      expect.objectContaining({ nodes: 0, devices: 0, reasons: ["gpu-node: vfio-ready, but its uevent gives no PCI_ID (uevent (ENOENT)), the only place KubeVirt's device plugin reads the id"] }),
    ]);
  });
});

describe("this machine's own root", () => {
  it('says whether the IOMMU is on, and never costs readiness', async () => {
    const groups = await readdir('/sys/kernel/iommu_groups').catch(() => [] as string[]);
    const facts = await probeHost('/', { enabled: false });
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
