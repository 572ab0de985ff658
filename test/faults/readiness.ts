/** Readiness that has not recovered: `/readyz` of the processes the test started. */
import type { AgentProcess } from '../lab/processes/launch.ts';
import type { AggregatorProcess } from '../lab/processes/launch.ts';

export async function unreadyAgent(agent: AgentProcess, label: string): Promise<string[]> {
  const response = await fetch(`http://127.0.0.1:${agent.port}/readyz`);
  return response.status === 200 ? [] : [`${label} /readyz ${response.status}: ${(await response.text()).trim()}`];
}

export async function unreadyAggregator(aggregator: AggregatorProcess): Promise<string[]> {
  const response = await aggregator.get('/readyz');
  return response.status === 200 ? [] : [`aggregator /readyz ${response.status}: ${(await response.text()).trim()}`];
}
