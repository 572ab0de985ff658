/**
 * One fresh process's cost of the hardware inventory: loading core/inventory and the one
 * collection the agent makes at start. Prints one JSON line; bench/inventory.ts runs it several
 * times, so each measurement starts from a process that has not loaded the library yet.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const rssBefore = process.memoryUsage().rss;
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const started = performance.now();
const { collectInventory } = await import('../core/inventory/collect.ts');
const loaded = performance.now();
const inventory = await collectInventory();
const collected = performance.now();
delay.disable();
process.stdout.write(
  `${JSON.stringify({
    loadMs: loaded - started,
    collectMs: collected - loaded,
    rssDeltaMiB: (process.memoryUsage().rss - rssBefore) / 2 ** 20,
    // The longest the event loop was held: why the agent collects before serving, not per probe.
    maxBlockedMs: delay.max / 1e6,
    collected: inventory.collected,
  })}\n`,
);
