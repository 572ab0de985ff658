// virtgate's page: fetches the latest report from the aggregator's API and redraws. Plain DOM,
// no framework, no build step; see render.js for why every value goes through textContent.
import { filterNodes, formatAge, formatPercent, freshness, h, renderChecks, renderNodeRows, statusClass } from './render.js';

const MAX_ROWS = 500;
const refreshSeconds = Number(new URLSearchParams(location.search).get('refresh'));
const REFRESH_MS = Number.isFinite(refreshSeconds) && refreshSeconds >= 1 && refreshSeconds <= 300 ? refreshSeconds * 1000 : 10_000;

/** @type {{ report: any, aggregator: any, fetchedAt: Date | null, fetchError: string | null }} */
const state = { report: null, aggregator: null, fetchedAt: null, fetchError: null };
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

async function refresh() {
  try {
    const response = await fetch('/api/v1/gate', { cache: 'no-store', headers: { accept: 'application/json' } });
    const body = await response.json().catch(() => null);
    if (response.ok) {
      state.report = body;
      state.aggregator = body.aggregator;
    } else if (response.status === 503 && body && body.error === 'not-synced') {
      state.aggregator = body.aggregator;
    } else {
      throw new Error(`HTTP ${response.status}`);
    }
    state.fetchedAt = new Date();
    state.fetchError = null;
  } catch (error) {
    state.fetchError = error instanceof Error ? error.message : String(error);
  }
  render();
}

function replace(element, ...children) {
  element.replaceChildren(...children.filter((child) => child !== null && child !== undefined));
}

function fact(label, value) {
  return h(document, 'div', {}, [h(document, 'dt', { text: label }), h(document, 'dd', { text: value })]);
}

function version(observed) {
  if (!observed) return '–';
  return observed.state === 'known' ? observed.version : `${observed.state}: ${observed.reason}`;
}

function renderBanner() {
  const { level, text } = freshness({ aggregator: state.aggregator, fetchedAt: state.fetchedAt, fetchError: state.fetchError, now: new Date(), refreshMs: REFRESH_MS });
  const banner = $('banner');
  banner.className = `banner banner-${level}`;
  banner.textContent = text;
}

function render() {
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
  renderNodes();
  const aggregator = state.aggregator ?? {};
  $('footer').textContent =
    `virtgate ${aggregator.virtgateVersion ?? ''} · refreshes every ${REFRESH_MS / 1000}s` +
    (state.fetchedAt ? ` · last fetched ${formatAge((Date.now() - state.fetchedAt.getTime()) / 1000)}` : '') +
    (aggregator.settings ? ` · stale after ${aggregator.settings.staleAfterSeconds}s · min ready ${aggregator.settings.minReady} · prefix ${aggregator.settings.prefix}` : '');
}

function renderNodes() {
  const report = state.report;
  if (!report) return;
  const filter = { text: /** @type {HTMLInputElement} */ ($('filter')).value, state: /** @type {HTMLSelectElement} */ ($('state')).value };
  const { shown, matching } = filterNodes(report.readiness.nodes, filter, MAX_ROWS);
  const body = /** @type {HTMLElement} */ ($('nodes').querySelector('tbody'));
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
