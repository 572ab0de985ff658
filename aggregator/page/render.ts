// The page's building blocks, without a framework; `npm run build` compiles this to the plain ES
// module the browser loads (aggregator/page/tsconfig.json). Everything the API returns is
// untrusted text (a node's agent writes its own report): it only ever reaches the page through
// textContent / text nodes, never through innerHTML, and class names come from fixed allowlists,
// never from data.
import type { Inventory } from '../../core/inventory/schema.ts';
import type { AggregatorStatus } from '../documents/aggregator-status.ts';
import type { CanaryClass } from '../documents/canary.ts';
import type { GateCheck, HostDeviceAvailability } from '../documents/gate.ts';
import type { NodeReadiness } from '../documents/readiness.ts';

/**
 * The shapes come from the aggregator's documents (types only: nothing of them reaches the
 * bundle). The code below still treats every value as untrusted and survives values outside them.
 */
export type CheckItem = GateCheck;
export type NodeRow = NodeReadiness;
/** The fields of the aggregator's state that the banner reads. */
export type AggregatorView = Pick<AggregatorStatus, 'synced' | 'healthy' | 'reason' | 'reportAgeSeconds'>;

/** Status words the API uses, mapped to CSS classes (a Map: 'constructor' or '__proto__' find nothing). Anything else gets a neutral class. */
const STATUS_CLASSES: ReadonlyMap<string, string> = new Map([
  ['pass', 'status-pass'],
  ['warn', 'status-warn'],
  ['fail', 'status-fail'],
  ['unknown', 'status-unknown'],
  ['ready', 'state-ready'],
  ['emulation', 'state-emulation'],
  ['not-ready', 'state-not-ready'],
  ['skip', 'status-skip'],
  ['error', 'status-error'],
]);

export function statusClass(status: unknown): string {
  return (typeof status === 'string' && STATUS_CLASSES.get(status)) || 'status-other';
}

/** A length of time: "45s", "10m", "2h", "3d". */
export function formatDuration(seconds: number): string {
  const s = Math.abs(Math.round(seconds));
  return s < 120 ? `${s}s` : s < 7200 ? `${Math.round(s / 60)}m` : s < 172_800 ? `${Math.round(s / 3600)}h` : `${Math.round(s / 86_400)}d`;
}

/** How long ago: "45s ago", or "in 30s" for the future. */
export function formatAge(seconds: unknown): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '–';
  return seconds < 0 ? `in ${formatDuration(seconds)}` : `${formatDuration(seconds)} ago`;
}

export function formatPercent(ratio: unknown): string {
  return typeof ratio === 'number' && Number.isFinite(ratio) ? `${Math.round(ratio * 100)}%` : '–';
}

/** Evidence as "key: value" lines (values as JSON), at most `max` lines. */
export function evidenceLines(evidence: unknown, max = 20): string[] {
  if (typeof evidence !== 'object' || evidence === null || Array.isArray(evidence)) return [];
  return Object.entries(evidence)
    .slice(0, max)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

/**
 * What the banner says about how current the page is: not synced, a broken watch, an old report,
 * or the aggregator unreachable (the page then keeps its last data and says since when).
 */
export function freshness({
  aggregator,
  fetchedAt,
  fetchError,
  now,
  refreshMs,
}: {
  aggregator?: AggregatorView | null;
  fetchedAt?: Date | null;
  fetchError?: string | null;
  now: Date;
  refreshMs: number;
}): { level: 'ok' | 'warn' | 'error'; text: string } {
  if (fetchError) {
    const since = fetchedAt ? ` Showing data fetched ${formatAge((now.getTime() - fetchedAt.getTime()) / 1000)}.` : '';
    return { level: 'error', text: `Cannot reach the aggregator: ${fetchError}.${since}` };
  }
  if (!aggregator) return { level: 'warn', text: 'Loading…' };
  if (!aggregator.synced) return { level: 'error', text: `The aggregator has not synced with the cluster (${aggregator.reason}).` };
  if (!aggregator.healthy) return { level: 'error', text: `Data may be stale: ${aggregator.reason}` };
  const age = typeof aggregator.reportAgeSeconds === 'number' ? aggregator.reportAgeSeconds : 0;
  // The aggregator recomputes at least every minute; much older means it is stuck.
  if (age > 180) return { level: 'warn', text: `The report is ${formatDuration(age)} old.` };
  if (fetchedAt && now.getTime() - fetchedAt.getTime() > 3 * refreshMs) {
    return { level: 'warn', text: `Last refreshed ${formatAge((now.getTime() - fetchedAt.getTime()) / 1000)}.` };
  }
  return { level: 'ok', text: `In sync with the cluster. Evaluated ${formatAge(age)}.` };
}

/** Nodes matching a text filter (name, reason, check ids and messages) and a state, at most `limit`. */
export function filterNodes<N extends NodeRow>(nodes: N[], filter: { text?: string; state?: string }, limit: number): { shown: N[]; matching: number } {
  const text = (filter.text ?? '').trim().toLowerCase();
  const state = filter.state ?? '';
  const matching = nodes.filter((node) => {
    if (state && node.state !== state) return false;
    if (!text) return true;
    const haystack = [node.name, node.reason ?? '', ...(node.failingChecks ?? []).map((check) => `${check.id} ${check.message}`)].join(' ').toLowerCase();
    return haystack.includes(text);
  });
  return { shown: matching.slice(0, limit), matching: matching.length };
}

/**
 * Creates an element. Strings among the children become text nodes; `text` sets textContent.
 * Only the attributes named in SAFE_ATTRIBUTES can be set, so data can never become a handler or a URL.
 */
export function h(
  doc: Document,
  tag: string,
  props: { className?: string; text?: unknown; title?: unknown; attrs?: Record<string, string> } = {},
  children: Array<Node | string | null | undefined> = [],
): HTMLElement {
  const element = doc.createElement(tag);
  if (props.className) element.className = props.className;
  if (props.text !== undefined && props.text !== null) element.textContent = String(props.text);
  if (props.title !== undefined && props.title !== null) element.title = String(props.title);
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (!SAFE_ATTRIBUTES.has(name) && !name.startsWith('data-') && !name.startsWith('aria-')) throw new Error(`attribute ${name} is not allowed`);
    element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.appendChild(typeof child === 'string' ? doc.createTextNode(child) : child);
  }
  return element;
}

const SAFE_ATTRIBUTES = new Set(['colspan', 'scope', 'role', 'open']);

/** The gate checklist: one item per check, with its status, message and evidence. */
export function renderChecks(doc: Document, checks: CheckItem[]): HTMLElement {
  const list = h(doc, 'ol', { className: 'checks' });
  for (const check of checks) {
    const lines = evidenceLines(check.evidence);
    list.appendChild(
      h(doc, 'li', { className: `check ${statusClass(check.status)}`, attrs: { 'data-check': check.id } }, [
        h(doc, 'span', { className: `badge ${statusClass(check.status)}`, text: String(check.status).toUpperCase() }),
        h(doc, 'code', { className: 'check-id', text: check.id }),
        h(doc, 'span', { className: 'check-message', text: check.message }),
        lines.length === 0
          ? null
          : h(doc, 'details', { className: 'evidence' }, [h(doc, 'summary', { text: 'evidence' }), h(doc, 'pre', { text: lines.join('\n') })]),
      ]),
    );
  }
  return list;
}

/** One line under the node name: system, CPU, counts and memory from the report's inventory. */
export function hardwareLine(doc: Document, inventory: Inventory | null | undefined): HTMLElement | null {
  if (!inventory || inventory.collected !== true) return null;
  const cpu: Partial<NonNullable<Inventory['cpu']>> = inventory.cpu ?? {};
  const system = [inventory.system?.manufacturer, inventory.system?.model].filter(Boolean).join(' ');
  const counts =
    typeof cpu.threads === 'number'
      ? `${cpu.sockets} socket${cpu.sockets === 1 ? '' : 's'}, ${cpu.cores} cores, ${cpu.threads} threads${typeof cpu.baseSpeedGHz === 'number' ? ` @ ${cpu.baseSpeedGHz} GHz` : ''}`
      : '';
  const memory = typeof inventory.memoryTotalBytes === 'number' ? `${Math.round(inventory.memoryTotalBytes / 2 ** 30)} GiB` : '';
  return h(doc, 'div', { className: 'hardware', text: [system, cpu.brand, counts, memory].filter(Boolean).join(' · ') });
}

/** How many nodes can take this node's VMs; 0 is stranded (warned), absent for nodes that are not ready. */
function migrationCell(doc: Document, targets: unknown): HTMLElement {
  if (typeof targets !== 'number') return h(doc, 'td', { className: 'migration', text: '–' });
  if (targets === 0) return h(doc, 'td', { className: 'migration status-warn', text: '0 (stranded)' });
  return h(doc, 'td', { className: 'migration', text: String(targets) });
}

const KIND_WORDS: ReadonlyMap<string, string> = new Map([['sev', 'SEV'], ['sev-es', 'SEV-ES'], ['sev-snp', 'SEV-SNP'], ['tdx', 'TDX']]);

/** A line under the node name with the confidential-guest kinds that can start there; none when there are none. */
export function confidentialLine(doc: Document, kinds: unknown): HTMLElement | null {
  if (!Array.isArray(kinds)) return null;
  const words = kinds.map((kind) => (typeof kind === 'string' ? KIND_WORDS.get(kind) : undefined)).filter((word): word is string => word !== undefined);
  return words.length > 0 ? h(doc, 'div', { className: 'confidential', text: `confidential guests: ${words.join(', ')}` }) : null;
}

/** The report fields the aggregator could not read, named, so whoever edited the report by hand sees which. */
export function unreadLine(doc: Document, fields: unknown): HTMLElement | null {
  if (!Array.isArray(fields) || fields.length === 0) return null;
  return h(doc, 'div', { className: 'unread', text: `report fields not read: ${fields.filter((field) => typeof field === 'string').join(', ')}` });
}

/** Table rows for nodes (worst first, as the API sorts them). */
export function renderNodeRows(doc: Document, nodes: NodeRow[]): DocumentFragment {
  const rows = doc.createDocumentFragment();
  for (const node of nodes) {
    const problems = (node.failingChecks ?? []).map((check) =>
      h(doc, 'li', { className: statusClass(check.status) }, [h(doc, 'code', { text: check.id }), ` ${check.status}: `, h(doc, 'span', { text: check.message })]),
    );
    rows.appendChild(
      h(doc, 'tr', { className: statusClass(node.state), attrs: { 'data-node': node.name } }, [
        h(doc, 'td', { className: 'node-name' }, [node.name, hardwareLine(doc, node.inventory), confidentialLine(doc, node.confidential)]),
        h(doc, 'td', {}, [h(doc, 'span', { className: `badge ${statusClass(node.state)}`, text: node.unknownCause ? `${node.state} (${node.unknownCause})` : node.state })]),
        h(doc, 'td', { text: node.tier ?? '–' }),
        h(doc, 'td', { text: node.cpuVendor ?? '–' }),
        h(doc, 'td', { text: node.kernel ?? '–' }),
        h(doc, 'td', { text: node.containerRuntime ?? '–' }),
        h(doc, 'td', { text: formatAge(node.heartbeatAgeSeconds), title: node.heartbeatAt ?? '' }),
        h(doc, 'td', { className: 'problems' }, [
          h(doc, 'div', { className: 'reason', text: node.reason }),
          problems.length ? h(doc, 'ul', {}, problems) : null,
          unreadLine(doc, node.unreadFields),
        ]),
        migrationCell(doc, node.migrationTargets),
      ]),
    );
  }
  return rows;
}

/**
 * KubeVirt's permitted host devices, one row each: how many ready nodes and devices can provide
 * it, and why the first other nodes cannot. A row no ready node provides is marked failing.
 */
export function renderHostDevices(doc: Document, entries: HostDeviceAvailability[]): HTMLElement {
  if (!Array.isArray(entries) || entries.length === 0) return h(doc, 'p', { className: 'muted', text: 'KubeVirt permits no host devices (spec.configuration.permittedHostDevices), or KubeVirt is not installed.' });
  const rows = entries.map((entry) => {
    const status = entry.external ? 'unknown' : entry.nodes > 0 ? 'pass' : 'fail';
    const why = entry.external ? ['served by an external device plugin: not judged'] : (entry.reasons ?? []);
    return h(doc, 'tr', { className: statusClass(status), attrs: { 'data-resource': String(entry.resource) } }, [
      h(doc, 'td', {}, [h(doc, 'code', { text: entry.resource })]),
      h(doc, 'td', { text: `${entry.kind} ${entry.selector}` }),
      h(doc, 'td', { className: status === 'fail' ? 'status-fail' : '', text: entry.external ? '–' : String(entry.nodes) }),
      h(doc, 'td', { text: entry.external ? '–' : String(entry.devices) }),
      h(doc, 'td', { className: 'problems' }, [why.length ? h(doc, 'ul', {}, why.map((line) => h(doc, 'li', { text: line }))) : null]),
    ]);
  });
  return h(doc, 'table', { className: 'host-devices' }, [
    h(doc, 'thead', {}, [
      h(doc, 'tr', {}, ['Resource', 'Selector', 'Ready nodes', 'Devices', 'Why not, per node'].map((title) => h(doc, 'th', { text: title, attrs: { scope: 'col' } }))),
    ]),
    h(doc, 'tbody', {}, rows),
  ]);
}

/** Seconds since `at` as of `evaluatedAt` (both ISO 8601), for an age; undefined when either is not a time. */
function secondsBetween(at: unknown, evaluatedAt: unknown): number | undefined {
  const from = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  const to = typeof evaluatedAt === 'string' ? Date.parse(evaluatedAt) : Number.NaN;
  return Number.isFinite(from) && Number.isFinite(to) ? (to - from) / 1000 : undefined;
}

/**
 * The VM canary per node class (GET /api/v1/canary), worst first as the API sorts them: the
 * newest result (booted, or the layer that stopped the VM and what it said), how long the newest
 * boot took, when a VM last booted there and how many runs in a row booted none.
 */
export function renderCanaryClasses(doc: Document, classes: CanaryClass[], evaluatedAt: string): HTMLElement {
  const rows = classes.map((entry) => {
    const latest: Partial<CanaryClass['latest']> = entry.latest ?? {};
    const status = latest.status === 'True' ? 'pass' : 'fail';
    const bootSeconds = entry.lastBoot?.seconds?.guestMarker;
    return h(doc, 'tr', { className: statusClass(status), attrs: { 'data-class': String(entry.nodeClass) } }, [
      h(doc, 'td', {}, [h(doc, 'code', { text: entry.nodeClass })]),
      h(doc, 'td', { text: `${entry.booted} of ${entry.nodes} booted` }),
      h(doc, 'td', { className: 'problems' }, [
        h(doc, 'span', { className: `badge ${statusClass(status)}`, text: latest.reason }),
        ` ${latest.node ?? ''} · ${formatAge(latest.ageSeconds)}`,
        latest.status === 'True' ? null : h(doc, 'div', { className: 'reason', text: latest.message }),
      ]),
      h(doc, 'td', { text: typeof bootSeconds === 'number' ? `${bootSeconds}s` : '–', title: entry.lastBoot ? `${entry.lastBoot.node} at ${entry.lastBoot.runAt}` : '' }),
      h(doc, 'td', { text: entry.lastSuccessAt === null ? 'never' : formatAge(secondsBetween(entry.lastSuccessAt, evaluatedAt)), title: entry.lastSuccessAt ?? '' }),
      h(doc, 'td', { className: entry.failedRuns > 0 ? 'status-fail' : '', text: String(entry.failedRuns) }),
    ]);
  });
  return h(doc, 'table', { className: 'canary' }, [
    h(doc, 'thead', {}, [
      h(doc, 'tr', {}, ['Node class', 'Nodes', 'Newest result', 'Boot time', 'Last boot', 'Failed runs'].map((title) => h(doc, 'th', { text: title, attrs: { scope: 'col' } }))),
    ]),
    h(doc, 'tbody', {}, rows),
  ]);
}
