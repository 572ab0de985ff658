// virtgate's page: fetches the latest report from the aggregator's API and redraws. Plain DOM,
// no framework; see render.ts for why every value goes through textContent.
import type { ErrorResponse, GateResponse } from '../documents/api.ts';
import type { CanaryResponse } from '../documents/canary.ts';
import type { ObservedVersion } from '../documents/gate.ts';
import {
  filterNodes,
  formatAge,
  formatPercent,
  freshness,
  h,
  renderCanaryClasses,
  renderChecks,
  renderHostDevices,
  renderNodeRows,
  statusClass,
} from './render.ts';

/**
 * The documents the page reads (core/documents.ts names them; the page is compiled for the browser
 * on its own, so it repeats them, and core/documents.test.ts checks that they agree).
 */
const DOCUMENT_API_VERSION = 'virtgate.io/v1alpha1';
const GATE_KIND = 'GateReport';
const ERROR_KIND = 'Error';
const CANARY_KIND = 'CanaryReport';

/** The aggregator's state, with what the footer shows. */
type AggregatorState = GateResponse['aggregator'];

const MAX_ROWS = 500;
const refreshSeconds = Number(new URLSearchParams(location.search).get('refresh'));
const REFRESH_MS = Number.isFinite(refreshSeconds) && refreshSeconds >= 1 && refreshSeconds <= 300 ? refreshSeconds * 1000 : 10_000;

const state: { report: GateResponse | null; canary: CanaryResponse | null; aggregator: AggregatorState | null; fetchedAt: Date | null; fetchError: string | null } = {
  report: null,
  canary: null,
  aggregator: null,
  fetchedAt: null,
  fetchError: null,
};
// The ids are index.html's own; a missing one is a bug in the page, not in the data.
const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** The canary's classes; the gate's fetch says whether the aggregator is reachable, so a failure here only keeps the last ones. */
async function refreshCanary(): Promise<void> {
  try {
    const response = await fetch('/api/v1/canary', { cache: 'no-store', headers: { accept: 'application/json' } });
    const body = (await response.json().catch(() => null)) as CanaryResponse | ErrorResponse | null;
    if (response.ok && body && body.apiVersion === DOCUMENT_API_VERSION && body.kind === CANARY_KIND) state.canary = body;
  } catch {
    // Kept: the banner already says when the aggregator cannot be reached.
  }
}

async function refresh(): Promise<void> {
  const canary = refreshCanary();
  try {
    const response = await fetch('/api/v1/gate', { cache: 'no-store', headers: { accept: 'application/json' } });
    // The aggregator's own JSON (its response schemas drop anything undeclared).
    const body = (await response.json().catch(() => null)) as GateResponse | ErrorResponse | null;
    // Another apiVersion is another schema: say so rather than draw it wrongly.
    if (body && body.apiVersion !== DOCUMENT_API_VERSION) throw new Error(`the aggregator answers ${String(body.apiVersion)} ${String(body.kind)}; this page reads ${DOCUMENT_API_VERSION}`);
    if (response.ok && body && body.kind === GATE_KIND) {
      state.report = body;
      state.aggregator = body.aggregator;
    } else if (response.status === 503 && body && body.kind === ERROR_KIND && body.error === 'not-synced') {
      state.aggregator = body.aggregator ?? null;
    } else {
      throw new Error(`HTTP ${response.status}`);
    }
    state.fetchedAt = new Date();
    state.fetchError = null;
  } catch (error) {
    state.fetchError = error instanceof Error ? error.message : String(error);
  }
  await canary;
  render();
}

function replace(element: Element, ...children: Array<Node | null | undefined>): void {
  element.replaceChildren(...children.filter((child): child is Node => child !== null && child !== undefined));
}

function fact(label: string, value: string): HTMLElement {
  return h(document, 'div', {}, [h(document, 'dt', { text: label }), h(document, 'dd', { text: value })]);
}

function version(observed: ObservedVersion | undefined): string {
  if (!observed) return '–';
  return observed.state === 'known' ? observed.version : `${observed.state}: ${observed.reason}`;
}

function renderBanner(): void {
  const { level, text } = freshness({ aggregator: state.aggregator, fetchedAt: state.fetchedAt, fetchError: state.fetchError, now: new Date(), refreshMs: REFRESH_MS });
  const banner = $('banner');
  banner.className = `banner banner-${level}`;
  banner.textContent = text;
}

function render(): void {
  renderBanner();
  const report = state.report;
  const result = $('result');
  if (!report) {
    result.className = 'result status-other';
    result.textContent = state.aggregator && !state.aggregator.synced ? 'NOT SYNCED' : '…';
    return;
  }
  result.className = `result ${statusClass(report.result)}`;
  result.textContent = `${String(report.result).toUpperCase()} · exit ${report.exitCode}`;
  const { versions, readiness } = report;
  replace(
    $('versions'),
    fact('Kubernetes', version(versions.kubernetes)),
    fact('KubeVirt', version(versions.kubevirt)),
    fact('CDI', version(versions.cdi)),
    fact('Version data', versions.dataUpdated),
    fact('Evaluated', report.evaluatedAt),
  );
  replace(
    $('counts'),
    fact('Nodes', String(readiness.total)),
    fact('Ready', String(readiness.counts.ready)),
    fact('Emulation', String(readiness.counts.emulation)),
    fact('Not ready', String(readiness.counts['not-ready'])),
    fact('Unknown', String(readiness.counts.unknown)),
    fact('Ready ratio', formatPercent(readiness.readyRatio)),
  );
  replace($('checks'), renderChecks(document, report.checks));
  replace($('host-devices'), renderHostDevices(document, report.hostDevices ?? []));
  renderCanary();
  renderNodes();
  const aggregator: Partial<AggregatorState> = state.aggregator ?? {};
  $('footer').textContent =
    `virtgate ${aggregator.virtgateVersion ?? ''} · refreshes every ${REFRESH_MS / 1000}s` +
    (state.fetchedAt ? ` · last fetched ${formatAge((Date.now() - state.fetchedAt.getTime()) / 1000)}` : '') +
    (aggregator.settings ? ` · stale after ${aggregator.settings.staleAfterSeconds}s · min ready ${aggregator.settings.minReady} · prefix ${aggregator.settings.prefix}` : '');
}

/** The canary's table, hidden while no node has a canary result (the canary is off or has not run). */
function renderCanary(): void {
  const canary = state.canary;
  const classes = canary && Array.isArray(canary.classes) ? canary.classes : [];
  $('canary-section').hidden = classes.length === 0;
  if (canary && classes.length > 0) replace($('canary'), renderCanaryClasses(document, classes, canary.evaluatedAt));
}

function renderNodes(): void {
  const report = state.report;
  if (!report) return;
  const filter = { text: ($('filter') as HTMLInputElement).value, state: ($('state') as HTMLSelectElement).value };
  const { shown, matching } = filterNodes(report.readiness.nodes, filter, MAX_ROWS);
  const body = $('nodes').querySelector('tbody') as HTMLElement;
  if (shown.length === 0) replace(body, h(document, 'tr', {}, [h(document, 'td', { text: 'no nodes match', attrs: { colspan: '9' } })]));
  else replace(body, renderNodeRows(document, shown));
  $('shown').textContent = matching > shown.length ? `showing ${shown.length} of ${matching}; filter to narrow` : `${matching} of ${report.readiness.total}`;
}

$('filter').addEventListener('input', renderNodes);
$('state').addEventListener('change', renderNodes);
setInterval(() => void refresh(), REFRESH_MS);
// The banner's ages move between refreshes.
setInterval(renderBanner, 1000);
void refresh();
