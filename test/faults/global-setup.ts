/**
 * The fault suite's own globalSetup (beside the control plane's): a per-run directory for the
 * ledger, and at the end the summary — faults injected by kind, recoveries, the longest time to
 * converge, objects lost. Any object lost fails the run, whatever the tests said.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import './child-env.ts';
import { LEDGER_FILE, type LedgerEntry } from './ledger.ts';
import { renderSummary, summarise } from './summary.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'virtgate-faults-'));
  project.provide('faultLedgerDir', dir);
  project.provide('faultCompileCache', path.join(dir, 'compile-cache'));
  return async () => {
    const text = await readFile(path.join(dir, LEDGER_FILE), 'utf8').catch(() => '');
    await rm(dir, { recursive: true, force: true });
    const entries = text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LedgerEntry);
    const summary = summarise(entries);
    process.stdout.write(entries.length > 0 ? renderSummary(summary, entries) : '\nvirtgate fault suite summary: no faults were injected in this run\n');
    if (summary.total.objectsLost > 0) {
      // Not a throw: that would skip the control plane's teardown; the exit code fails the run.
      const where = entries.filter((entry) => entry.objectsLost > 0).map((entry) => `${entry.kind} (${entry.test})`);
      process.stderr.write(`virtgate fault suite: FAILED: ${summary.total.objectsLost} object(s) lost in ${where.join(', ')}\n`);
      process.exitCode = 1;
    }
  };
}
