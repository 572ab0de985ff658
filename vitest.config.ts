import { defineConfig } from 'vitest/config';
import LabSequencer from './test/lab/support/sequencer.ts';

/**
 * Five projects, one `npm test`:
 *  - unit: pure functions and host probes on fixture roots, beside the code they test;
 *  - integration: against the real control plane started once per run (globalSetup);
 *  - faults: the fault suite (`npm run test:faults`), also against the real control plane;
 *  - node: the chart's images built from their Dockerfiles and run by a real kubelet on this
 *    machine (`npm run test:node`);
 *  - cluster: three real kubelet nodes on this machine, each in its own network and mount
 *    namespace (`npm run test:cluster`).
 * The node project's groupOrder 1 should put it after the others (vitest's docs); in the CI runs of
 * 2026-12-07 on this 2-core machine its files ran first, and the projects' files one after another
 * (their durations add up to the run's), so none competed with another for the cores.
 */
export default defineConfig({
  test: {
    // The default output, then a table of the slowest files (test/lab/support/slowest-files.ts).
    reporters: ['default', './test/lab/support/slowest-files.ts'],
    // vitest's order, with the node files that share one KubeVirt last in their project (sequencer.ts).
    sequence: { sequencer: LabSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['core/**/*.test.ts', 'cli/**/*.test.ts', 'agent/**/*.test.ts', 'aggregator/**/*.test.ts', 'prune/**/*.test.ts', 'explain/**/*.test.ts', 'canary/**/*.test.ts', 'scripts/**/*.test.ts', 'test/lab/**/*.test.ts', 'test/hosts/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/lab/controlplane/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          // One shared control plane; files run one at a time so audit-log counts stay attributable.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'faults',
          include: ['test/faults/**/*.test.ts'],
          // The control plane, then the fault ledger whose teardown prints the summary (and fails
          // the run if any object was lost).
          globalSetup: ['test/lab/controlplane/global-setup.ts', 'test/faults/global-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'node',
          include: ['test/node/**/*.test.ts'],
          // The real node, then the fault ledger (shared with the faults project when both run):
          // the node faults (test/node/faults.test.ts) are counted in the same summary.
          globalSetup: ['test/node/global-setup.ts', 'test/faults/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          // Three real nodes (test/lab/cluster), started once for the project's files.
          globalSetup: ['test/cluster/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
