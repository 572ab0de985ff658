import { describe, expect, it } from 'vitest';
import { type CheckItem, evidenceLines, filterNodes, formatAge, formatPercent, freshness, h, type NodeRow, renderCanaryClasses, renderChecks, renderHostDevices, renderNodeRows, statusClass } from './render.ts';
import type { HostDeviceAvailability } from '../documents/gate.ts';


/**
 * A minimal DOM that records what the page builds and throws if anything assigns markup
 * (innerHTML, outerHTML) or sets an event handler: the page must never do either with data.
 * It has only what the page uses, hence the casts to and from the DOM's types.
 */
interface FakeElement {
  tag: string;
  className: string;
  title: string;
  attributes: Record<string, string>;
  children: Array<FakeElement | { text: string }>;
  textContent: string;
}

function fakeDocument(): Document {
  const element = (tag: string): FakeElement => {
    let text: string | undefined;
    const node = {
      tag,
      className: '',
      title: '',
      attributes: {} as Record<string, string>,
      children: [] as Array<FakeElement | { text: string }>,
      get textContent(): string {
        return text ?? node.children.map((child) => ('text' in child ? child.text : child.textContent)).join('');
      },
      set textContent(value: string) {
        text = value;
        node.children = [];
      },
      set innerHTML(_value: string) {
        throw new Error('innerHTML was assigned');
      },
      set outerHTML(_value: string) {
        throw new Error('outerHTML was assigned');
      },
      setAttribute(name: string, value: string) {
        if (/^on/i.test(name)) throw new Error(`event handler attribute ${name} was set`);
        node.attributes[name] = value;
      },
      appendChild(child: FakeElement | { text: string }) {
        node.children.push(child);
        return child;
      },
    };
    return node;
  };
  const doc = {
    createElement: element,
    createTextNode: (text: string) => ({ text }),
    createDocumentFragment: () => element('#fragment'),
  };
  return doc as unknown as Document;
}

function allElements(root: FakeElement): FakeElement[] {
  return [root, ...root.children.flatMap((child) => ('tag' in child ? allElements(child) : []))];
}

// The data below is hostile or partial on purpose, outside the documents' schemas (hence the
// casts): whatever arrives, the page must only ever produce text.
const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(2)>';

describe('page rendering', () => {
  it('puts hostile check text on the page as text only', () => {
    const doc = fakeDocument();
    const list = renderChecks(doc, [
      { id: 'nodes.runtime', status: 'fail', message: `runtime ${SCRIPT}`, evidence: { unsupported: [IMG] } },
      { id: `x${IMG}`, status: `"><b onmouseover=alert(3)>`, message: IMG, evidence: null },
    ] as unknown as CheckItem[]) as unknown as FakeElement;
    const elements = allElements(list);
    expect(elements.map((element) => element.tag).sort()).toEqual(['code', 'code', 'details', 'li', 'li', 'ol', 'pre', 'span', 'span', 'span', 'span', 'summary']);
    expect(list.textContent).toContain(`runtime ${SCRIPT}`);
    expect(list.textContent).toContain(`unsupported: ["${IMG}"]`);
    // A status outside the allowlist never reaches a class attribute.
    expect(elements.map((element) => element.className).join(' ')).not.toContain('onmouseover');
    expect(elements.some((element) => element.className.includes('status-other'))).toBe(true);
  });

  it('builds node rows from text nodes and allowlisted classes', () => {
    const doc = fakeDocument();
    const rows = renderNodeRows(doc, [
      {
        name: 'node-a',
        state: 'not-ready',
        reason: `not ready (${SCRIPT})`,
        unknownCause: null,
        tier: 'none',
        cpuVendor: 'intel',
        kernel: IMG,
        containerRuntime: `containerd://${IMG}`,
        heartbeatAt: '2026-12-02T11:59:00Z',
        heartbeatAgeSeconds: 60,
        agentVersion: '0.1.0',
        failingChecks: [{ id: 'dev.kvm', status: 'fail', message: SCRIPT }],
        migrationTargets: null,
        unreadFields: ['status.cpuVendor', SCRIPT],
      },
      { name: 'node-b', state: 'javascript:alert(1)', reason: 'x', failingChecks: [], migrationTargets: 0 },
      {
        name: 'node-c',
        state: 'ready',
        reason: 'x',
        failingChecks: [],
        migrationTargets: 4,
        confidential: ['sev-snp', 'sev-es', 'sev', '<b>x</b>'],
        inventory: {
          collected: true,
          system: { manufacturer: 'Dell Inc.', model: SCRIPT },
          cpu: { brand: 'Intel Xeon Platinum 8488C', sockets: 2, cores: 96, threads: 192, baseSpeedGHz: 2.4 },
          memoryTotalBytes: 512 * 2 ** 30,
        },
      },
    ] as unknown as NodeRow[]) as unknown as FakeElement;
    const [first, second] = (rows as unknown as FakeElement).children as FakeElement[];
    expect(first?.attributes['data-node']).toBe('node-a');
    expect(first?.className).toBe('state-not-ready');
    expect(first?.textContent).toContain(SCRIPT);
    expect(first?.textContent).toContain(`containerd://${IMG}`);
    expect(allElements(rows).some((element) => element.tag === 'script' || element.tag === 'img')).toBe(false);
    expect(second?.className).toBe('status-other');
    // The report fields not read, named under the reason (as text); none said for a node without any.
    expect(first?.textContent).toContain(`report fields not read: status.cpuVendor, ${SCRIPT}`);
    expect(second?.textContent).not.toContain('report fields not read');
    // The last cell: the live-migration target count, 0 marked as stranded.
    const lastCell = (row: FakeElement | undefined) => (row?.children as FakeElement[] | undefined)?.at(-1)?.textContent;
    expect([lastCell(first), lastCell(second), lastCell(rows.children[2] as FakeElement)]).toEqual(['–', '0 (stranded)', '4']);
    // The inventory is a text line under the name, markup included as text.
    const nameCell = ((rows.children[2] as FakeElement).children as FakeElement[])[0];
    const hardware = (nameCell?.children as FakeElement[] | undefined)?.find((child) => child.className === 'hardware');
    expect(hardware?.textContent).toBe(`Dell Inc. ${SCRIPT} · Intel Xeon Platinum 8488C · 2 sockets, 96 cores, 192 threads @ 2.4 GHz · 512 GiB`);
    // The confidential kinds that can start, in words; a value the page does not know is left out.
    const confidential = (nameCell?.children as FakeElement[] | undefined)?.find((child) => child.className === 'confidential');
    expect(confidential?.textContent).toBe('confidential guests: SEV-SNP, SEV-ES, SEV');
    expect(allElements(rows).some((element) => element.tag === 'script')).toBe(false);
  });

  it('refuses attributes that could carry code or URLs', () => {
    const doc = fakeDocument();
    for (const name of ['onclick', 'href', 'src', 'style', 'srcdoc', 'formaction']) {
      expect(() => h(doc, 'a', { attrs: { [name]: 'javascript:alert(1)' } })).toThrow(/not allowed/);
    }
    expect((h(doc, 'td', { attrs: { colspan: '8', 'data-x': '1', 'aria-label': 'y' } }) as unknown as FakeElement).attributes).toEqual({ colspan: '8', 'data-x': '1', 'aria-label': 'y' });
  });
});

describe('the checklist says what the gate says', () => {
  // The gate's words for a failed node KubeVirt still places VMs on (aggregator/gate/gate.test.ts
  // holds the gate to them); the page is a browser program and cannot run the gate here.
  const STILL_SCHEDULABLE =
    "KubeVirt's workloads placement selects 2 nodes, all ready. KubeVirt still places new VMs on a node virtgate failed, which stay Scheduled there without a virt-handler to start them: " +
    "node-c (not-ready; the share guard refused virtgate's taint: the limit is 1) until 2026-12-02T12:04:00Z (virt-handler's last heartbeat plus virt-controller's 5-minute timeout); cordon or drain it, or let virtgate taint it (agent.taint.policy, agent.taint.maxShare)";

  it('shows a failed node KubeVirt still places VMs on as a warning, with the node, the refusal and the deadline', () => {
    const checks = [
      { id: 'kubevirt.deployed', status: 'pass', message: 'KubeVirt v1.9.0 is deployed', evidence: {} },
      { id: 'kubevirt.placement', status: 'warn', message: STILL_SCHEDULABLE, evidence: { selected: 2, stillSchedulable: ['node-c (not-ready)'] } },
    ] as CheckItem[];
    const list = renderChecks(fakeDocument(), checks) as unknown as FakeElement;
    const item = list.children.find((child): child is FakeElement => 'tag' in child && child.textContent.includes('kubevirt.placement'));
    expect(item?.className.split(' ')).toContain(statusClass('warn'));
    expect(item?.textContent).toContain(STILL_SCHEDULABLE);
    expect(item?.textContent).toContain('stillSchedulable: ["node-c (not-ready)"]');
  });
});

describe('the host devices table', () => {
  it('marks a device no ready node provides as failing, lists the reasons as text, and says when nothing is permitted', () => {
    const doc = fakeDocument();
    const table = renderHostDevices(doc, [
      { resource: 'nvidia.com/GA102GL_A10', kind: 'pci', selector: '10DE:2236', external: false, nodes: 2, devices: 3, providers: ['a', 'b'], reasons: [] },
      { resource: `nvidia.com/RTX${SCRIPT}`, kind: 'pci', selector: '10DE:2204', external: false, nodes: 0, devices: 0, providers: [], reasons: [`node-c: IOMMU group not viable ${IMG}`] },
      { resource: 'vendor.com/nic', kind: 'pci', selector: '15B3:101E', external: true, nodes: 0, devices: 0, providers: [], reasons: [] },
    ]) as unknown as FakeElement;
    const rows = allElements(table).filter((element) => element.tag === 'tr' && element.attributes['data-resource'] !== undefined);
    expect(rows.map((row) => row.className)).toEqual(['status-pass', 'status-fail', 'status-unknown']);
    expect(table.textContent).toContain(`node-c: IOMMU group not viable ${IMG}`);
    expect(table.textContent).toContain('not judged');
    expect(allElements(table).some((element) => element.tag === 'img' || element.tag === 'script')).toBe(false);
    const empty = renderHostDevices(doc, [] as HostDeviceAvailability[]) as unknown as FakeElement;
    expect(empty.textContent).toContain('permits no host devices');
  });
});

describe('page helpers', () => {
  it('maps only known statuses to classes', () => {
    expect(statusClass('fail')).toBe('status-fail');
    expect(statusClass('not-ready')).toBe('state-not-ready');
    expect(statusClass('constructor')).toBe('status-other');
    expect(statusClass('__proto__')).toBe('status-other');
    expect(statusClass(7)).toBe('status-other');
  });

  it('formats ages, ratios and evidence', () => {
    expect(formatAge(45)).toBe('45s ago');
    expect(formatAge(600)).toBe('10m ago');
    expect(formatAge(7200)).toBe('2h ago');
    expect(formatAge(3 * 86_400)).toBe('3d ago');
    expect(formatAge(-30)).toBe('in 30s');
    expect(formatAge(null)).toBe('–');
    expect(formatPercent(2 / 3)).toBe('67%');
    expect(formatPercent(Number.NaN)).toBe('–');
    expect(evidenceLines({ a: 1, b: 'two', c: ['x'], d: null })).toEqual(['a: 1', 'b: two', 'c: ["x"]', 'd: null']);
    expect(evidenceLines([1, 2])).toEqual([]);
    expect(evidenceLines(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])))).toHaveLength(20);
  });

  it('says how current the page is', () => {
    const now = new Date('2026-12-02T12:00:00Z');
    const fetchedAt = new Date('2026-12-02T11:59:55Z');
    const healthy = { synced: true, healthy: true, reason: 'in sync with the API server', reportAgeSeconds: 5 };
    const base = { now, refreshMs: 10_000, fetchedAt };
    expect(freshness({ ...base, aggregator: healthy })).toEqual({ level: 'ok', text: 'In sync with the cluster. Evaluated 5s ago.' });
    expect(freshness({ ...base, aggregator: { ...healthy, synced: false, healthy: false, reason: 'not synced yet: nodes' } })).toEqual({
      level: 'error',
      text: 'The aggregator has not synced with the cluster (not synced yet: nodes).',
    });
    expect(freshness({ ...base, aggregator: { ...healthy, healthy: false, reason: 'watch broken: nodes' } }).text).toBe('Data may be stale: watch broken: nodes');
    expect(freshness({ ...base, aggregator: { ...healthy, reportAgeSeconds: 600 } })).toEqual({ level: 'warn', text: 'The report is 10m old.' });
    expect(freshness({ ...base, aggregator: healthy, fetchError: 'Failed to fetch' })).toEqual({ level: 'error', text: 'Cannot reach the aggregator: Failed to fetch. Showing data fetched 5s ago.' });
    expect(freshness({ ...base, aggregator: healthy, fetchedAt: new Date('2026-12-02T11:58:00Z') }).level).toBe('warn');
  });

  it('filters nodes by text and state, and caps what it shows', () => {
    const nodes = [
      { name: 'node-a', state: 'not-ready', reason: 'not ready (failing: dev.kvm)', failingChecks: [{ id: 'dev.kvm', message: '/dev/kvm is missing' }] },
      { name: 'node-b', state: 'ready', reason: 'ready: KVM acceleration', failingChecks: [] },
      { name: 'node-c', state: 'ready', reason: 'ready: KVM acceleration', failingChecks: [{ id: 'kernel.version', message: 'non-EL kernel 6.8' }] },
    ] as unknown as NodeRow[];
    expect(filterNodes(nodes, { text: 'KVM IS', state: '' }, 10).shown.map((node) => node.name)).toEqual(['node-a']);
    expect(filterNodes(nodes, { state: 'ready' }, 10).shown.map((node) => node.name)).toEqual(['node-b', 'node-c']);
    expect(filterNodes(nodes, { text: 'kernel' }, 10).shown.map((node) => node.name)).toEqual(['node-c']);
    expect(filterNodes(nodes, {}, 2)).toMatchObject({ matching: 3, shown: [{ name: 'node-a' }, { name: 'node-b' }] });
  });
});

describe('the VM canary table', () => {
  it('one row per class: the newest result, the boot time, the last boot as an age, the failed runs; messages stay text', () => {
    const doc = fakeDocument();
    const table = renderCanaryClasses(
      doc,
      [
        {
          nodeClass: `amd/epyc${SCRIPT}`,
          nodes: 2,
          booted: 1,
          latest: { node: 'amd-2', status: 'False', reason: 'GuestSilent', message: `console: ${IMG}`, runAt: '2026-12-02T11:30:00Z', ageSeconds: 1800, seconds: { scheduled: 2 } },
          failedRuns: 3,
          lastSuccessAt: '2026-12-02T09:00:00Z',
          lastBoot: { node: 'amd-1', runAt: '2026-12-02T09:00:00Z', seconds: { guestMarker: 48 } },
        },
        {
          nodeClass: 'intel/xeon',
          nodes: 1,
          booted: 1,
          latest: { node: 'intel-1', status: 'True', reason: 'Booted', message: 'the guest printed the nonce', runAt: '2026-12-02T11:50:00Z', ageSeconds: 600, seconds: { guestMarker: 21 } },
          failedRuns: 0,
          lastSuccessAt: '2026-12-02T11:50:00Z',
          lastBoot: { node: 'intel-1', runAt: '2026-12-02T11:50:00Z', seconds: { guestMarker: 21 } },
        },
        {
          nodeClass: 'arm/n1',
          nodes: 1,
          booted: 0,
          latest: { node: 'arm-1', status: 'False', reason: 'NotScheduled', message: 'Insufficient devices.kubevirt.io/kvm', runAt: '2026-12-02T11:55:00Z', ageSeconds: 300, seconds: {} },
          failedRuns: 1,
          lastSuccessAt: null,
          lastBoot: null,
        },
      ],
      '2026-12-02T12:00:00Z',
    ) as unknown as FakeElement;
    const rows = allElements(table).filter((element) => element.tag === 'tr' && element.attributes['data-class'] !== undefined);
    expect(rows.map((row) => row.className)).toEqual(['status-fail', 'status-pass', 'status-fail']);
    // textContent joins the message's own block (a div) without a space, as the DOM does.
    const cells = rows.map((row) => row.children.map((cell) => ('text' in cell ? cell.text : cell.textContent)));
    expect(cells).toEqual([
      [`amd/epyc${SCRIPT}`, '1 of 2 booted', `GuestSilent amd-2 · 30m agoconsole: ${IMG}`, '48s', '3h ago', '3'],
      ['intel/xeon', '1 of 1 booted', 'Booted intel-1 · 10m ago', '21s', '10m ago', '0'],
      ['arm/n1', '0 of 1 booted', 'NotScheduled arm-1 · 5m agoInsufficient devices.kubevirt.io/kvm', '–', 'never', '1'],
    ]);
    expect(allElements(table).some((element) => element.tag === 'img' || element.tag === 'script')).toBe(false);
  });
});
