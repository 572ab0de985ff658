import type { VmBoot } from '../core/report/schema.ts';
import { nodeClassOf } from './classes.ts';
import type { ReportView } from './report-view.ts';

/**
 * Which nodes this run tries (pure; `now` is an input). One node per class, the one whose last
 * canary run is oldest (never run first, ties by name): over runs this rotates through each class
 * with no state but the published results. At most `maxVmis` classes per run, those whose pick ran
 * longest ago first, so a capped run does not starve a class.
 */

/** What the canary reads of one Node. */
export interface NodeView {
  name: string;
  /** The `kubernetes.io/hostname` label (the name when it has none): what the VMI's nodeSelector names. */
  hostname: string;
  /** spec.unschedulable: cordoned (kubectl cordon, a drain). */
  unschedulable: boolean;
}

export const SKIP_REASONS = ['NoReport', 'NoNode', 'NotReady', 'Stale', 'Cordoned', 'ClassPicked', 'OverCap'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface PickedNode {
  node: string;
  hostname: string;
  nodeClass: string;
  /** This node's last result, carried into the next one (lastSuccessAt, lastTransitionTime). */
  previous: VmBoot | undefined;
  /** Runs in a row without a boot on this class before this one (from the class's latest result). */
  classFailedRunsBefore: number;
}

export interface Skipped {
  node: string;
  reason: SkipReason;
}

export interface Picks {
  picked: PickedNode[];
  skipped: Skipped[];
}

export interface PickOptions {
  maxVmis: number;
  /** A report whose heartbeat is older than this is not trusted to say the node is ready. */
  staleAfterSeconds: number;
  now: Date;
}

/** The aggregator's default --stale-after: past it, a node's report no longer counts. */
export const STALE_AFTER_SECONDS = 30 * 60;

const byName = (a: { node: string }, b: { node: string }) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0);

/** Never run sorts before any time; then oldest first. */
function runAtKey(vmBoot: VmBoot | undefined): number {
  return vmBoot === undefined ? Number.NEGATIVE_INFINITY : Date.parse(vmBoot.runAt);
}

function whyNot(node: NodeView | undefined, report: ReportView | undefined, options: PickOptions): SkipReason | undefined {
  if (report === undefined) return 'NoReport';
  if (node === undefined) return 'NoNode';
  if (report.ready !== true) return 'NotReady';
  const heartbeat = report.heartbeatAt === undefined ? Number.NaN : Date.parse(report.heartbeatAt);
  if (!(options.now.getTime() - heartbeat <= options.staleAfterSeconds * 1000)) return 'Stale';
  if (node.unschedulable) return 'Cordoned';
  return undefined;
}

/** The class's latest published result: its classFailedRuns is where this run counts on from. */
function classFailedRunsBefore(nodeClass: string, reports: readonly ReportView[]): number {
  const latest = reports
    .map((report) => report.vmBoot)
    .filter((vmBoot): vmBoot is VmBoot => vmBoot?.nodeClass === nodeClass)
    .sort((a, b) => runAtKey(b) - runAtKey(a))[0];
  return latest?.classFailedRuns ?? 0;
}

export function pickNodes(nodes: readonly NodeView[], reports: readonly ReportView[], options: PickOptions): Picks {
  const nodeByName = new Map(nodes.map((node) => [node.name, node]));
  const reportByName = new Map(reports.map((report) => [report.node, report]));
  const names = [...new Set([...nodeByName.keys(), ...reportByName.keys()])].sort();

  const skipped: Skipped[] = [];
  const classes = new Map<string, { report: ReportView; node: NodeView }[]>();
  for (const name of names) {
    const node = nodeByName.get(name);
    const report = reportByName.get(name);
    const reason = whyNot(node, report, options);
    if (reason !== undefined || node === undefined || report === undefined) {
      skipped.push({ node: name, reason: reason ?? 'NoReport' });
      continue;
    }
    const nodeClass = nodeClassOf(report);
    classes.set(nodeClass, [...(classes.get(nodeClass) ?? []), { report, node }]);
  }

  const choices = [...classes.entries()].map(([nodeClass, members]) => {
    const ordered = [...members].sort((a, b) => runAtKey(a.report.vmBoot) - runAtKey(b.report.vmBoot) || byName({ node: a.node.name }, { node: b.node.name }));
    return { nodeClass, ordered };
  });
  // The classes whose chosen node ran longest ago go first; ties by class name, for a stable order.
  choices.sort((a, b) => runAtKey(a.ordered[0]?.report.vmBoot) - runAtKey(b.ordered[0]?.report.vmBoot) || (a.nodeClass < b.nodeClass ? -1 : a.nodeClass > b.nodeClass ? 1 : 0));

  const picked: PickedNode[] = [];
  for (const { nodeClass, ordered } of choices) {
    const [first, ...rest] = ordered;
    if (first === undefined) continue;
    if (picked.length >= options.maxVmis) {
      for (const member of ordered) skipped.push({ node: member.node.name, reason: 'OverCap' });
      continue;
    }
    picked.push({
      node: first.node.name,
      hostname: first.node.hostname,
      nodeClass,
      previous: first.report.vmBoot,
      classFailedRunsBefore: classFailedRunsBefore(nodeClass, reports),
    });
    for (const member of rest) skipped.push({ node: member.node.name, reason: 'ClassPicked' });
  }
  return { picked, skipped: skipped.sort(byName) };
}
