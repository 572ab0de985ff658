import { startVirtgateProcess, type VirtgateProcess } from './virtgate-process.ts';

export { seriesValue as metricValue } from './virtgate-process.ts';

export interface AgentProcess extends VirtgateProcess {
  port: number;
  metrics(): Promise<string>;
}

/** Runs `virtgate agent` as a real process, as the DaemonSet would, and waits until it serves HTTP. */
export async function startAgentProcess(args: string[], env: Record<string, string> = {}): Promise<AgentProcess> {
  const agent = await startVirtgateProcess('agent', args, env);
  return {
    ...agent,
    port: Number(new URL(agent.url).port),
    metrics: async () => (await fetch(`${agent.url}/metrics`)).text(),
  };
}
