/**
 * The fault suite's own globalSetup (beside the control plane's, and beside the real node's in the
 * node project): a per-run directory for the ledger, and at the end the summary — cluster faults
 * apart from input cases, each class against its minimum, times to recover (median, max) against
 * their bounds, objects lost. An object lost, a fault that did not recover or recovered slower
 * than its bound, or a class short of its minimum fails the run, whatever the tests said.
 */
import { mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import './child-env.ts';
import { LEDGER_FILE, type LedgerEntry } from './ledger.ts';
import { failures, renderSummary, type SummaryOptions, summarise } from './summary.ts';

/**
 * Reads the ledger in `dir`, prints the summary to `out`, and returns the exit code the run must
 * get: 1 when the summary finds a failure (summary.ts `failures`). Exported for the ledger's self-test.
 */
export async function closeLedger(dir: string, out: (text: string) => void, err: (text: string) => void, options: SummaryOptions = {}): Promise<number> {
  const text = await readFile(path.join(dir, LEDGER_FILE), 'utf8').catch(() => '');
  const entries = text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LedgerEntry);
  const summary = summarise(entries, options);
  out(summary.kinds.length > 0 ? renderSummary(summary, entries) : '\nvirtgate fault suite summary: no faults were injected in this run\n');
  const failed = failures(summary);
  if (failed.length === 0) return 0;
  const where = entries.filter((entry) => entry.objectsLost > 0 || !entry.recovered).map((entry) => `${entry.kind} (${entry.test})`);
  err(`virtgate fault suite: FAILED: ${failed.join(', ')}${where.length > 0 ? ` in ${where.join(', ')}` : ''}\n`);
  return 1;
}

/**
 * One ledger for the whole `vitest run`: the faults project and the node project (whose node
 * faults are counted too) both use this setup, so `npm test` prints one summary with every class.
 * The first setup makes the directory, the last teardown closes the ledger.
 */
interface SharedLedger {
  dir: string;
  users: number;
}
const SHARED = Symbol.for('virtgate.faultLedger');
const shared = globalThis as { [SHARED]?: SharedLedger };

export default function setup(project: TestProject): () => Promise<void> {
  // Synchronous: two projects' setups may run side by side and must not make two directories.
  const ledger = (shared[SHARED] ??= { dir: mkdtempSync(path.join(os.tmpdir(), 'virtgate-faults-')), users: 0 });
  ledger.users += 1;
  project.provide('faultLedgerDir', ledger.dir);
  project.provide('faultCompileCache', path.join(ledger.dir, 'compile-cache'));
  return async () => {
    ledger.users -= 1;
    if (ledger.users > 0) return;
    delete shared[SHARED];
    // The test files of this run (every project's): the classes of those that ran must reach their minimums.
    const root = project.config.root;
    const ranFiles = project.vitest.state.getFiles().map((file) => path.relative(root, file.filepath));
    const code = await closeLedger(
      ledger.dir,
      (text) => process.stdout.write(text),
      (text) => process.stderr.write(text),
      { ranFiles },
    );
    await rm(ledger.dir, { recursive: true, force: true });
    // Not a throw: that would skip the control plane's teardown; the exit code fails the run.
    if (code !== 0) process.exitCode = code;
  };
}
