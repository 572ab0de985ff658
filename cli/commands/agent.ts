import { Command } from 'commander';
import { agentSettings } from '../../agent/config.ts';
import { Agent } from '../../agent/agent.ts';
import { assertHostRoot } from '../../core/checks/probe-host.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { createLogger } from '../../core/log.ts';
import { stopOnSignal } from '../../core/shutdown.ts';
import { addSettings, configOf } from '../settings/flags.ts';
import { exitCodesHelp } from '../exit-codes.ts';
import { permissionsHelp } from '../permissions.ts';
import { asUsageError, toUsageError } from '../usage-error.ts';

export function agentCommand(): Command {
  return addSettings(new Command('agent'), agentSettings)
    .description('run as the DaemonSet agent: probe this node and publish the verdict on its own Node')
    .addHelpText('after', `\n${permissionsHelp('agent')}\n${exitCodesHelp('agent')}`)
    .action(async (flags: Record<string, unknown>) => {
      await runAgent(flags);
    });
}

async function runAgent(flags: Record<string, unknown>): Promise<void> {
  let config;
  try {
    config = configOf(agentSettings, flags);
    await assertHostRoot(config.hostRoot);
  } catch (error) {
    throw toUsageError(error);
  }
  const kc = await asUsageError(() => loadKubeConfig({ kubeconfig: config.kubeconfig }), 'cannot load the kubeconfig');
  const log = createLogger(config.logLevel, { node: config.nodeName });
  const agent = new Agent(config, kc, log);
  try {
    await agent.start();
  } catch (error) {
    throw toUsageError(error, `cannot serve HTTP on ${config.bindAddress}:${config.port}`);
  }
  await stopOnSignal(log, () => agent.stop());
}
