import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../test/lab/support/fuzz-runs.ts';
import { NOW, rawNode, rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import { modelOf } from '../model/cluster.ts';
import { type NodeModel, parseNode } from '../model/node.ts';
import { readReport, type ReportParse } from '../../core/report/read.ts';
import { assessNode } from './assess-node.ts';
import { computeReadiness } from './cluster-readiness.ts';
import { compareWorstFirst } from './sort.ts';
import type { ClusterReadiness } from '../documents/readiness.ts';

/**
 * The aggregator keeps each node's assessment while its objects and freshness do not change, keeps
 * the sorted index of Node objects while they are the same (model/cluster.ts), and pairs reports
 * with nodes by walking two sorted lists (cluster-readiness.ts). This proves both
 * against the plain way (every node assessed again, reports grouped in a map, the age read from
 * the raw heartbeat) over sequences of recomputes in which objects are replaced, added and
 * removed, reports are duplicated, orphaned, unnamed or invalid, and the clock crosses the stale
 * limit both ways.
 */
const RUNS = fuzzRuns(200);
const STALE = DEFAULT_GATE_CONFIG.staleAfterSeconds;
const NAMES = ['a', 'b', 'b0', 'c', 'n-1', 'n-10', 'n-2', 'z'];

type ReportKind = 'fresh' | 'old' | 'future' | 'not-ready' | 'invalid' | 'unnamed' | 'forged';

const reportOf = (name: string, kind: ReportKind, heartbeatMs: number): unknown => {
  const heartbeatAt = new Date(heartbeatMs).toISOString();
  switch (kind) {
    case 'invalid':
      return { metadata: { name }, status: { ready: 'yes' } };
    case 'unnamed':
      return { metadata: {}, status: {} };
    case 'forged':
      return rawReport(name, { heartbeatAt, ownerUid: 'someone-else' });
    case 'not-ready':
      return rawReport(name, { heartbeatAt, ready: false });
    default:
      return rawReport(name, { heartbeatAt });
  }
};

/** One step: objects replaced or removed, then the clock moved; then a recompute. */
const step = fc.record({
  nodes: fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom('keep', 'replace', 'remove', 'kubelet-down')), { maxLength: 4 }),
  reports: fc.array(
    fc.tuple(fc.constantFrom(...NAMES, 'orphan-x', 'orphan-y'), fc.constantFrom<ReportKind | 'remove' | 'duplicate'>('fresh', 'old', 'future', 'not-ready', 'invalid', 'unnamed', 'forged', 'remove', 'duplicate')),
    { maxLength: 4 },
  ),
  advanceSeconds: fc.integer({ min: 0, max: STALE * 2 }),
});

/** The plain way: a map of reports by name, every node assessed from scratch, ages from the raw heartbeats. */
function plainReadiness(nodes: readonly NodeModel[], reports: readonly ReportParse[], heartbeats: ReadonlyMap<ReportParse, number>, nowMs: number) {
  const byName = new Map<string, ReportParse[]>();
  let unnamed = 0;
  for (const parse of reports) {
    const name = parse.state === 'valid' ? parse.report.name : parse.name;
    if (name === null) unnamed += 1;
    else byName.set(name, [...(byName.get(name) ?? []), parse]);
  }
  const options = { staleAfterSeconds: STALE, prefix: DEFAULT_GATE_CONFIG.prefix, nowMs };
  const names = new Set(nodes.map((node) => node.name));
  const assessed = nodes.map((node) => {
    const parses = byName.get(node.name) ?? [];
    const { readiness, report } = assessNode(node, parses, options);
    const heartbeat = report === null ? undefined : heartbeats.get(parses[0] as ReportParse);
    return { ...readiness, heartbeatAgeSeconds: heartbeat === undefined ? null : Math.round((nowMs - heartbeat) / 1000) };
  });
  return {
    nodes: assessed.sort(compareWorstFirst),
    orphans: [...byName.keys()].filter((name) => !names.has(name)).sort(),
    unnamed,
  };
}

describe('kept assessments', () => {
  it('equal a full re-assessment after every change and clock move', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        let nowMs = NOW.getTime();
        const nodes = new Map<string, NodeModel>(NAMES.slice(0, 5).map((name) => [name, parseNode(rawNode(name)) as NodeModel]));
        const reports = new Map<string, ReportParse[]>(NAMES.slice(0, 4).map((name) => [name, [readReport(rawReport(name, { heartbeatAt: NOW.toISOString() }))]]));
        const heartbeats = new Map<ReportParse, number>([...reports.values()].flat().map((parse) => [parse, nowMs]));
        for (const change of steps) {
          for (const [name, action] of change.nodes) {
            if (action === 'remove') nodes.delete(name);
            else if (action === 'replace' || !nodes.has(name)) nodes.set(name, parseNode(rawNode(name)) as NodeModel);
            else if (action === 'kubelet-down') nodes.set(name, parseNode(rawNode(name, { kubeletReady: 'False' })) as NodeModel);
          }
          for (const [name, action] of change.reports) {
            if (action === 'remove') {
              reports.delete(name);
              continue;
            }
            const heartbeatMs = action === 'old' ? nowMs - (STALE + 30) * 1000 : action === 'future' ? nowMs + (STALE + 30) * 1000 : nowMs;
            const parse = readReport(reportOf(name, action === 'duplicate' ? 'fresh' : action, heartbeatMs));
            heartbeats.set(parse, heartbeatMs);
            reports.set(name, action === 'duplicate' ? [...(reports.get(name) ?? []), parse] : [parse]);
          }
          nowMs += change.advanceSeconds * 1000;
          // As the watches hand them over: in the order they arrived, not sorted.
          const reportList = [...reports.values()].flat().reverse();
          const model = modelOf({ serverGitVersion: 'v1.36.3', nodes: [...nodes.values()].reverse(), reports: reportList, kubevirt: { state: 'crd-absent' }, cdi: { state: 'crd-absent' } });
          const kept: ClusterReadiness = computeReadiness(model, DEFAULT_GATE_CONFIG, new Date(nowMs));
          // The nodes from the test's own map, not the model's index (modelOf keeps that too).
          const byName = [...nodes.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
          expect(model.nodes).toEqual(byName);
          const plain = plainReadiness(byName, reportList, heartbeats, nowMs);
          expect(kept.nodes).toEqual(plain.nodes);
          expect(kept.ignored.orphanReportCount).toBe(plain.orphans.length);
          expect(kept.ignored.orphanReports).toEqual(plain.orphans.slice(0, 10));
          expect(kept.ignored.unnamedReports).toBe(plain.unnamed);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('re-assesses a kept node when its report goes stale, and again when a new heartbeat arrives', () => {
    const node = parseNode(rawNode('n1')) as NodeModel;
    const fresh = readReport(rawReport('n1', { heartbeatAt: NOW.toISOString() }));
    const at = (seconds: number, report: ReportParse) =>
      computeReadiness(modelOf({ serverGitVersion: null, nodes: [node], reports: [report], kubevirt: { state: 'crd-absent' }, cdi: { state: 'crd-absent' } }), DEFAULT_GATE_CONFIG, new Date(NOW.getTime() + seconds * 1000)).nodes[0];
    expect(at(10, fresh)).toMatchObject({ state: 'ready', heartbeatAgeSeconds: 10 });
    expect(at(STALE, fresh)).toMatchObject({ state: 'ready', heartbeatAgeSeconds: STALE });
    expect(at(STALE + 1, fresh)).toMatchObject({ state: 'unknown', unknownCause: 'stale', heartbeatAgeSeconds: STALE + 1 });
    const renewed = readReport(rawReport('n1', { heartbeatAt: new Date(NOW.getTime() + STALE * 1000).toISOString() }));
    expect(at(STALE + 1, renewed)).toMatchObject({ state: 'ready', heartbeatAgeSeconds: 1 });
  });
});
