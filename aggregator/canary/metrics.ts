import { Gauge, Histogram, type Registry } from 'prom-client';
import type { NodeCanaryResult } from './results.ts';
import type { CanaryView } from './view.ts';

/** Creation of the VMI to the guest's nonce: a tiny guest boots in seconds, the canary's bound is minutes (default 3m). */
export const CANARY_BOOT_BUCKETS = [5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 450, 600];

/**
 * The VM canary's series by node class (docs/metrics.md), all read from the latest report's
 * canary view when scraped:
 * - `virtgate_canary_boot_seconds` observes each new Booted result once: a node's result is new
 *   when its runAt is not the one observed last for that node. A restarted aggregator starts
 *   empty and observes the results it then finds once more: Prometheus reads the drop as a
 *   counter reset, as for any restarted process. A class no result names any longer loses its
 *   series, as a node no result names is forgotten.
 * - `virtgate_canary_last_success_timestamp_seconds` and `virtgate_canary_failed_runs` come from
 *   the summary per class, so a class no report names any longer has no series.
 */
export function registerCanaryMetrics(registers: Registry[], latest: () => CanaryView | null): void {
  const boots = new BootObservations();
  new Histogram({
    name: 'virtgate_canary_boot_seconds',
    help: "VM canary boots by node class: seconds from the VMI's creation to its guest's nonce on the serial console; each Booted result observed once.",
    labelNames: ['class'],
    buckets: CANARY_BOOT_BUCKETS,
    registers,
    collect() {
      const view = latest();
      if (view !== null) boots.observe(this, view);
    },
  });
  new Gauge({
    name: 'virtgate_canary_last_success_timestamp_seconds',
    help: 'Per node class: when a canary VM last booted on one of its nodes (the latest status.vmBoot.lastSuccessAt, Unix seconds); absent when none ever did.',
    labelNames: ['class'],
    registers,
    collect() {
      this.reset();
      for (const entry of latest()?.summary.classes ?? []) {
        const ms = entry.lastSuccessAt === null ? Number.NaN : Date.parse(entry.lastSuccessAt);
        if (Number.isFinite(ms)) this.set({ class: entry.nodeClass }, ms / 1000);
      }
    },
  });
  new Gauge({
    name: 'virtgate_canary_failed_runs',
    help: "Per node class: runs in a row that booted no VM on it (the newest result's classFailedRuns); 0 after a boot.",
    labelNames: ['class'],
    registers,
    collect() {
      this.reset();
      for (const entry of latest()?.summary.classes ?? []) this.set({ class: entry.nodeClass }, entry.failedRuns);
    },
  });
}

/** What the histogram has observed: per node, the runAt of its last Booted result observed; the classes it has series for. */
class BootObservations {
  private readonly observed = new Map<string, string>();
  private readonly classes = new Set<string>();
  private seen: CanaryView | null = null;

  /** Observes the view's Booted results not observed before, once per view, and forgets the nodes and classes it no longer names. */
  observe(histogram: Histogram<'class'>, view: CanaryView): void {
    if (view === this.seen) return;
    this.seen = view;
    const nodes = new Set<string>();
    const classes = new Set<string>();
    for (const { node, vmBoot } of view.results) {
      nodes.add(node);
      classes.add(vmBoot.nodeClass);
      if (!this.classes.has(vmBoot.nodeClass)) {
        // A class has its series, at 0, from its first result on: one whose first runs fail is there before it boots.
        histogram.zero({ class: vmBoot.nodeClass });
        this.classes.add(vmBoot.nodeClass);
      }
      if (isNewBoot(this.observed, node, vmBoot)) {
        this.observed.set(node, vmBoot.runAt);
        histogram.observe({ class: vmBoot.nodeClass }, vmBoot.seconds.guestMarker ?? 0);
      }
    }
    for (const node of this.observed.keys()) if (!nodes.has(node)) this.observed.delete(node);
    for (const nodeClass of this.classes) {
      if (classes.has(nodeClass)) continue;
      histogram.remove({ class: nodeClass });
      this.classes.delete(nodeClass);
    }
  }
}

function isNewBoot(observed: ReadonlyMap<string, string>, node: string, vmBoot: NodeCanaryResult['vmBoot']): boolean {
  return vmBoot.reason === 'Booted' && vmBoot.seconds.guestMarker !== undefined && observed.get(node) !== vmBoot.runAt;
}
