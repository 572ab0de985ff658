import { access } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { DEVICE_SPECS, type DeviceName, type DeviceSpec } from '../../core/checks/device-numbers.ts';
import { evaluate } from '../../core/checks/evaluate.ts';
import { DEFAULT_POLICY } from '../../core/checks/policy.ts';
import { assertHostRoot, HostRootError, probeHost } from '../../core/checks/probe-host.ts';
import type { HostFacts } from '../../core/checks/registry.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import { DEFAULT_VHV_OPTIONS, readVhvRecording, runVirtHostValidate, type VhvFacts } from '../../core/checks/vhv.ts';
import { VIRTGATE_VERSION } from '../../core/package-info.ts';
import { deviceNumbers, majorMinor, positiveNumber } from '../parse-options.ts';
import { renderCheckTable } from '../render/check-table.ts';
import { EXIT, UsageError } from '../usage-error.ts';

interface CheckOptions {
  hostRoot: string;
  json: boolean;
  allowEmulation: boolean;
  minKernel: string;
  vhv: boolean;
  vhvOutput?: string;
  vhvCommand: string;
  vhvTimeout: number;
  kvmRun: boolean;
  deviceNumbers: Record<DeviceName, DeviceSpec>;
}

/** The `--json` document. Its schema is documented in the README. */
export interface CheckReport extends Verdict {
  virtgateVersion: string;
  hostRoot: string;
  policy: { allowEmulation: boolean; minKernel: string };
  facts: HostFacts;
}

export function checkCommand(): Command {
  return new Command('check')
    .description('validate this machine (or a host root) for KubeVirt VMs, like virt-host-validate but stricter')
    .option('--host-root <dir>', 'read the host under this directory', '/')
    .option('--json', 'print the verdict as JSON', false)
    .option('--allow-emulation', 'count "emulation" (no KVM, KubeVirt useEmulation) as ready', false)
    .addOption(new Option('--min-kernel <major.minor>', 'kernels below this fail').default(DEFAULT_POLICY.minKernel).argParser(majorMinor))
    .addOption(new Option('--vhv-output <file>', 'evaluate a recorded `virt-host-validate qemu` output instead of running it').conflicts('vhv'))
    .option('--no-vhv', 'leave virt-host-validate out')
    .option('--vhv-command <path>', 'the virt-host-validate executable', DEFAULT_VHV_OPTIONS.command)
    .option('--no-kvm-run', 'do not run the tiny KVM guest (check kvm.run)')
    .addOption(
      new Option('--vhv-timeout <seconds>', 'kill virt-host-validate after this long')
        .default(DEFAULT_VHV_OPTIONS.timeoutSeconds)
        .argParser(positiveNumber),
    )
    .addOption(
      new Option('--device-numbers <name=major:minor,...>', 'testing only: accept other device numbers; results say "overridden"')
        .default(DEVICE_SPECS, 'the kernel\'s')
        .argParser(deviceNumbers)
        .hideHelp(),
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 ready, 1 not ready, 2 usage or internal error.\n' +
        'Example: virtgate check --json | jq \'.checks[] | select(.status != "pass")\'',
    )
    .action(async (options: CheckOptions) => {
      process.exitCode = await runCheck(options);
    });
}

async function runCheck(options: CheckOptions): Promise<number> {
  try {
    await assertHostRoot(options.hostRoot);
  } catch (error) {
    if (error instanceof HostRootError) throw new UsageError(`${error.message}; pass an existing directory to --host-root`);
    throw error;
  }
  if (options.vhvOutput !== undefined) {
    await access(options.vhvOutput).catch(() => {
      throw new UsageError(`--vhv-output ${options.vhvOutput}: file not found or not readable`);
    });
  }
  const policy = { allowEmulation: options.allowEmulation, minKernel: options.minKernel };
  const [facts, vhv] = await Promise.all([probeHost(options.hostRoot, options.deviceNumbers, { enabled: options.kvmRun }), virtHostValidate(options)]);
  const verdict = evaluate(facts, vhv, policy);
  if (options.json) {
    const report: CheckReport = { ...verdict, virtgateVersion: VIRTGATE_VERSION, hostRoot: options.hostRoot, policy, facts };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(renderCheckTable(verdict, options.hostRoot));
  }
  return verdict.ready ? EXIT.ok : EXIT.notReady;
}

function virtHostValidate(options: CheckOptions): Promise<VhvFacts> {
  if (options.vhvOutput !== undefined) return readVhvRecording(options.vhvOutput);
  if (!options.vhv) return Promise.resolve({ state: 'disabled' });
  return runVirtHostValidate({ command: options.vhvCommand, timeoutSeconds: options.vhvTimeout });
}
