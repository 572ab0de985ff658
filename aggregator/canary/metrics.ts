import { Gauge, Histogram, type Registry } from 'prom-client';
import type { CanarySummary } from '../documents/canary.ts';
import type { NodeCanaryResult } from './results.ts';

/** Creation of the VMI to the guest's nonce: a tiny guest boots in seconds, the canary's bound is minutes (default 3m). */
export const CANARY_BOOT_BUCKETS = [5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 450, 600];

/**
 * The VM canary's series by node class (docs/metrics.md):
 * - `virtgate_canary_boot_seconds` observes each new Booted result once (a node's result is new
 *   when its runAt is one this process has not observed for that node). A restarted aggregator
 *   starts empty and observes the results it then finds once more: Prometheus reads the drop as a
 *   counter reset, as for any restarted process.
 * - `virtgate_canary_last_success_timestamp_seconds` and `virtgate_canary_failed_runs` are read
 *   from the latest summary when scraped, so a class no report names any longer has no series.
 * The histogram's series of such a class are removed too, at the next observation.
 */
export class CanaryMetrics {
  private readonly bootSeconds: Histogram<'class'>;
  /** Per node, the runAt of the Booted result last observed. */
  private readonly observed = new Map<string, string>();
  /** Classes the histogram has series for. */
  private readonly histogramClasses = new Set<string>();

  constructor(registers: Registry[], latest: () => CanarySummary | null) {
    this.bootSeconds = new Histogram({
      name: 'virtgate_canary_boot_seconds',
      help: "VM canary boots by node class: seconds from the VMI's creation to its guest's nonce on the serial console; each Booted result observed once.",
      labelNames: ['class'],
      buckets: CANARY_BOOT_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'virtgate_canary_last_success_timestamp_seconds',
      help: 'Per node class: when a canary VM last booted on one of its nodes (the latest status.vmBoot.lastSuccessAt, Unix seconds); absent when none ever did.',
      labelNames: ['class'],
      registers,
      collect() {
        this.reset();
        for (const entry of latest()?.classes ?? []) {
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
        for (const entry of latest()?.classes ?? []) this.set({ class: entry.nodeClass }, entry.failedRuns);
      },
    });
  }

  /** Observes the Booted results not observed before, and forgets the nodes and classes that have none left. */
  observe(results: readonly NodeCanaryResult[]): void {
    const nodes = new Set<string>();
    const classes = new Set<string>();
    for (const { node, vmBoot } of results) {
      nodes.add(node);
      classes.add(vmBoot.nodeClass);
      if (!this.histogramClasses.has(vmBoot.nodeClass)) {
        // A class has its series, at 0, from its first result on: one whose first runs fail is there before it boots.
        this.bootSeconds.zero({ class: vmBoot.nodeClass });
        this.histogramClasses.add(vmBoot.nodeClass);
      }
      const seconds = vmBoot.seconds.guestMarker;
      if (vmBoot.reason !== 'Booted' || seconds === undefined || this.observed.get(node) === vmBoot.runAt) continue;
      this.observed.set(node, vmBoot.runAt);
      this.bootSeconds.observe({ class: vmBoot.nodeClass }, seconds);
    }
    for (const node of this.observed.keys()) if (!nodes.has(node)) this.observed.delete(node);
    for (const nodeClass of this.histogramClasses) {
      if (classes.has(nodeClass)) continue;
      this.bootSeconds.remove({ class: nodeClass });
      this.histogramClasses.delete(nodeClass);
    }
  }
}
