import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { evaluate } from '../core/checks/evaluate.ts';
import { DEFAULT_POLICY } from '../core/checks/policy.ts';
import { probeHost } from '../core/checks/probe-host.ts';
import { DEFAULT_VHV_OPTIONS, runVirtHostValidate } from '../core/checks/families/vhv.ts';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { median, p95, timeRuns } from './stats.ts';
import type { BenchRow } from './table.ts';
import { passthroughBench } from './passthrough.ts';

const run = promisify(execFile);

/**
 * The agent's probe cycle on this machine (host root `/`), with and without virt-host-validate,
 * against the tool alone; and both commands end to end, process start included.
 */
export async function probeCycleBench(): Promise<BenchRow[]> {
  const section = 'probe cycle';
  // kvm.run off: its child process has its own rows (kvm-run.ts); these stay comparable with earlier runs.
  const noKvmRun = { enabled: false };
  const native = await timeRuns(300, async () => evaluate(await probeHost('/', noKvmRun), { state: 'disabled' }, DEFAULT_POLICY), 10);
  const tool = await timeRuns(20, () => runVirtHostValidate(DEFAULT_VHV_OPTIONS));
  const full = await timeRuns(20, async () => {
    const [facts, vhv] = await Promise.all([probeHost('/', noKvmRun), runVirtHostValidate(DEFAULT_VHV_OPTIONS)]);
    return evaluate(facts, vhv, DEFAULT_POLICY);
  });
  const tenTimes = { text: '≥ 10× faster than the tool', met: (v: number) => median(tool) / v >= 10 };

  const cli = path.join(PACKAGE_ROOT, 'dist/cli/main.js');
  if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` before `npm run bench`');
  const exitsWith = (command: string, args: string[]) => () => run(command, args).catch((error: unknown) => error);
  const checkNoVhv = await timeRuns(10, exitsWith(process.execPath, [cli, 'check', '--no-vhv', '--no-kvm-run']), 1);
  const checkFull = await timeRuns(10, exitsWith(process.execPath, [cli, 'check']), 1);
  const vhvCommand = await timeRuns(10, exitsWith('virt-host-validate', ['qemu']), 1);

  return [
    { section, figure: 'native probes + evaluate (kvm.run off), median', value: median(native), unit: 'ms', target: tenTimes, baseline: { label: 'virt-host-validate qemu', value: median(tool) }, ratio: 'baseline/value' },
    { section, figure: 'native probes + evaluate, p95', value: p95(native), unit: 'ms', baseline: { label: 'virt-host-validate p95', value: p95(tool) }, ratio: 'baseline/value' },
    { section, figure: 'full cycle with virt-host-validate, median', value: median(full), unit: 'ms', baseline: { label: 'virt-host-validate qemu', value: median(tool) }, ratio: 'value/baseline' },
    { section, figure: 'full cycle with virt-host-validate, p95', value: p95(full), unit: 'ms' },
    { section: 'whole command', figure: '`virtgate check --no-vhv --no-kvm-run`, process start included, median', value: median(checkNoVhv), unit: 'ms', baseline: { label: '`virt-host-validate qemu`', value: median(vhvCommand) }, ratio: 'baseline/value' },
    { section: 'whole command', figure: '`virtgate check` (runs the tool too), median', value: median(checkFull), unit: 'ms', baseline: { label: '`virt-host-validate qemu`', value: median(vhvCommand) }, ratio: 'value/baseline' },
    ...(await passthroughBench()),
  ];
}
