import type { Reporter, TestModule } from 'vitest/node';

/** How many files the table lists. */
const ROWS = 15;

/**
 * A reporter beside vitest's default: at the end of a run, the slowest test files and their
 * seconds, so that drift in the suite's time shows in every CI log (docs/development.md, "How
 * long the tests take").
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length === 0) return;
    const rows = testModules
      .map((module) => ({ file: `${module.project.name}  ${module.relativeModuleId}`, seconds: module.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds);
    const total = rows.reduce((sum, row) => sum + row.seconds, 0);
    const width = Math.max(...rows.slice(0, ROWS).map((row) => row.file.length));
    const lines = rows.slice(0, ROWS).map((row) => `  ${row.file.padEnd(width)}  ${row.seconds.toFixed(1).padStart(7)} s`);
    process.stdout.write(`\nThe ${Math.min(ROWS, rows.length)} slowest of ${rows.length} test files (all files together: ${total.toFixed(0)} s):\n${lines.join('\n')}\n`);
  }
}
