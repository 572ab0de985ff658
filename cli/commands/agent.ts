import { Command, Option } from 'commander';
import { AGENT_DEFAULTS, parseAgentConfig } from '../../agent/config.ts';
import { Agent } from '../../agent/agent.ts';
import { DEVICE_SPECS } from '../../core/checks/device-numbers.ts';
import { assertHostRoot } from '../../core/checks/probe-host.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { createLogger } from '../../core/log.ts';
import { deviceNumbers, durationSeconds, majorMinor, port, positiveNumber, share } from '../parse-options.ts';
import { asUsageError, UsageError } from '../usage-error.ts';

interface AgentFlags {
  nodeName?: string;
  hostRoot: string;
  kubeconfig?: string;
  prefix: string;
  interval: number;
  jitter: number;
  heartbeat: number;
  port: number;
  bindAddress: string;
  requestTimeout: number;
  publishFailureThreshold: number;
  allowEmulation: boolean;
  minKernel: string;
  vhv: boolean;
  vhvCommand: string;
  vhvTimeout: number;
  kvmRun: boolean;
  deviceNumbers: typeof DEVICE_SPECS;
  taintPolicy: string;
  taintPoolSelector: string;
  taintEffect: string;
  allowNoExecute: boolean;
  taintMaxShare: number;
  bootstrapTaintKey?: string;
  logLevel: string;
}

const D = AGENT_DEFAULTS;

export function agentCommand(): Command {
  return new Command('agent')
    .description('run as the DaemonSet agent: probe this node and publish the verdict on its own Node')
    .addOption(new Option('--node-name <name>', 'this Node (from the downward API)').env('NODE_NAME'))
    .addOption(new Option('--host-root <dir>', 'where the host is mounted').default(D.hostRoot).env('VIRTGATE_HOST_ROOT'))
    .option('--kubeconfig <path>', 'kubeconfig (default: in-cluster ServiceAccount, then KUBECONFIG)')
    .addOption(new Option('--prefix <domain>', 'prefix of every label, annotation and taint key').default(D.prefix).env('VIRTGATE_PREFIX'))
    .addOption(new Option('--interval <duration>', 'probe interval (jittered)').default(D.intervalSeconds, '5m').argParser(durationSeconds))
    .addOption(new Option('--jitter <share>', 'spread of the interval, 0-0.5').default(D.jitter).argParser(Number))
    .addOption(new Option('--heartbeat <duration>', 'refresh the report and condition at most this often').default(D.heartbeatSeconds, '10m').argParser(durationSeconds))
    .addOption(new Option('--port <port>', 'HTTP port for /metrics, /healthz, /readyz').default(D.port).argParser(port))
    .option('--bind-address <address>', 'HTTP bind address', D.bindAddress)
    .addOption(new Option('--request-timeout <duration>', 'timeout of one API request').default(D.requestTimeoutSeconds, '15s').argParser(durationSeconds))
    .addOption(
      new Option('--publish-failure-threshold <duration>', '/readyz fails once publishing has failed this long')
        .default(D.publishFailureThresholdSeconds, '2m')
        .argParser(durationSeconds),
    )
    .option('--allow-emulation', 'count the emulation tier as ready', false)
    .addOption(new Option('--min-kernel <major.minor>', 'kernels below this fail').default(D.policy.minKernel).argParser(majorMinor))
    .option('--no-vhv', 'leave virt-host-validate out')
    .option('--no-kvm-run', 'do not run the tiny KVM guest (check kvm.run) each probe cycle')
    .option('--vhv-command <path>', 'the virt-host-validate executable', D.vhv.command)
    .addOption(new Option('--vhv-timeout <seconds>', 'kill virt-host-validate after this long').default(D.vhv.timeoutSeconds).argParser(positiveNumber))
    .addOption(new Option('--device-numbers <name=major:minor,...>', 'testing only').default(DEVICE_SPECS, 'the kernel\'s').argParser(deviceNumbers).hideHelp())
    .addOption(new Option('--taint-policy <policy>', 'off | not-ready | bootstrap').default(D.taint.policy))
    .option('--taint-pool-selector <selector>', 'label selector of the nodes the not-ready policy may taint (empty: all)', D.taint.poolSelector)
    .addOption(new Option('--taint-effect <effect>', 'NoSchedule | NoExecute').default(D.taint.effect))
    .option('--allow-no-execute', 'permit --taint-effect NoExecute (evicts running pods)', false)
    .addOption(new Option('--taint-max-share <share>', 'never taint more than this share of the pool').default(D.taint.maxShare).argParser(share))
    .option('--bootstrap-taint-key <key>', 'bootstrap policy: remove this registration taint once the node is ready')
    .addOption(new Option('--log-level <level>', 'fatal | error | warn | info | debug | trace').default(D.logLevel).env('VIRTGATE_LOG_LEVEL'))
    .addHelpText('after', '\nExit codes: 0 after SIGTERM/SIGINT, 2 on a bad setting (one line on stderr).')
    .action(async (flags: AgentFlags) => {
      await runAgent(flags);
    });
}

async function runAgent(flags: AgentFlags): Promise<void> {
  let config;
  try {
    config = parseAgentConfig({
      nodeName: flags.nodeName ?? '',
      hostRoot: flags.hostRoot,
      kubeconfig: flags.kubeconfig,
      prefix: flags.prefix,
      intervalSeconds: flags.interval,
      jitter: flags.jitter,
      heartbeatSeconds: flags.heartbeat,
      port: flags.port,
      bindAddress: flags.bindAddress,
      requestTimeoutSeconds: flags.requestTimeout,
      publishFailureThresholdSeconds: flags.publishFailureThreshold,
      policy: { allowEmulation: flags.allowEmulation, minKernel: flags.minKernel },
      vhv: { enabled: flags.vhv, command: flags.vhvCommand, timeoutSeconds: flags.vhvTimeout },
      kvmRun: flags.kvmRun,
      deviceNumbers: flags.deviceNumbers,
      taint: {
        policy: flags.taintPolicy,
        poolSelector: flags.taintPoolSelector,
        effect: flags.taintEffect,
        allowNoExecute: flags.allowNoExecute,
        maxShare: flags.taintMaxShare,
        ...(flags.bootstrapTaintKey ? { bootstrapKey: flags.bootstrapTaintKey } : {}),
      },
      logLevel: flags.logLevel,
    });
    await assertHostRoot(config.hostRoot);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const kc = await asUsageError(() => loadKubeConfig({ kubeconfig: config.kubeconfig }), 'cannot load the kubeconfig');
  const log = createLogger(config.logLevel, { node: config.nodeName });
  const agent = new Agent(config, kc, log);
  try {
    await agent.start();
  } catch (error) {
    throw new UsageError(`cannot serve HTTP on ${config.bindAddress}:${config.port}: ${error instanceof Error ? error.message : String(error)}`);
  }
  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      log.info({ signal }, 'stopping');
      agent.stop().then(resolve, resolve);
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });
}
