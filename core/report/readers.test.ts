import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { PACKAGE_ROOT } from '../package-info.ts';
import { readReport } from './read.ts';

/**
 * Who reads a NodeValidation. A program module that fetches reports from the API server is listed
 * here with what it does with them; every status field it reads comes through readReport()
 * (read.ts), which hands out declared fields only. A new fetcher fails this test until it is listed.
 */
const FETCHERS: Record<string, string> = {
  'agent/node-api.ts': "the agent's own report: compared with what the agent would write (agent/desired/report.ts), never read for a verdict",
  'aggregator/watch/resources.ts': 'informers: every object goes through keepReport, which is readReport (aggregator/watch/keep.ts)',
  'canary/canary-api.ts': 'the VM canary: every object goes through reportView, which is readReport (canary/report-view.ts)',
  'prune/prune-api.ts': 'names only, to delete them',
};

/** The modules that call readReport on objects from the API server. */
const NARROWERS = ['aggregator/model/cluster.ts', 'aggregator/snapshot/list-once.ts', 'aggregator/watch/keep.ts', 'canary/report-view.ts', 'explain/read-cluster.ts'];

const PROGRAM_DIRS = ['agent', 'aggregator', 'canary', 'cli', 'core', 'demo', 'explain', 'prune'];

function programSources(): Array<{ file: string; text: string }> {
  return PROGRAM_DIRS.flatMap((dir) =>
    readdirSync(path.join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => {
        const relative = path.join(dir, file);
        // Comments may name anything: only code counts.
        const code = readFileSync(path.join(PACKAGE_ROOT, relative), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
        return { file: relative, text: code };
      }),
  );
}

describe("the report's readers", () => {
  const sources = programSources();

  it('are the listed modules: no other program module fetches NodeValidations', () => {
    const fetchers = sources.filter(({ text }) => /plural: NODE_VALIDATION_PLURAL|\/\$\{NODE_VALIDATION_PLURAL\}/.test(text)).map(({ file }) => file);
    expect(fetchers.sort()).toEqual(Object.keys(FETCHERS).sort());
  });

  it('narrow through readReport, and only the listed modules call it', () => {
    // A use is a mention outside the import statements (a call, or the function handed on).
    const callers = sources.filter(({ file, text }) => file !== 'core/report/read.ts' && /\breadReport\b/.test(text.replace(/^import [^;]*;$/gm, ''))).map(({ file }) => file);
    expect(callers.sort()).toEqual([...NARROWERS].sort());
  });

  it("never get the raw host facts or a check's observed reading: readReport hands out declared fields only", () => {
    const raw = rawReport('n1') as { status: Record<string, unknown> };
    raw.status.facts = { cpu: { state: 'ok', value: { vendor: 'intel' } } };
    raw.status.checks = [{ id: 'platform', status: 'pass', message: 'bare metal', observed: { kind: 'bare-metal' } }];
    const reading = readReport(raw);
    if (reading.state !== 'valid') throw new Error(reading.reason);
    const text = JSON.stringify(reading.report);
    expect(text).not.toContain('facts');
    expect(text).not.toContain('observed');
    expect(reading.report.checks).toEqual([{ id: 'platform', status: 'pass', message: 'bare metal' }]);
  });
});
