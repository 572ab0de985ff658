/**
 * Child process for the footprint benchmark: runs the agent's own cycle (probe + publish) back
 * to back against the control plane and prints RSS after GC at the checkpoints as JSON lines.
 * Run with --expose-gc.
 */
import { Agent } from '../agent/agent.ts';
import { AGENT_DEFAULTS, parseAgentConfig } from '../agent/config.ts';
import { parseDeviceOverrides } from '../core/checks/device-numbers.ts';
import { loadKubeConfig } from '../core/kube/kubeconfig.ts';
import { createLogger } from '../core/log.ts';

const [kubeconfig, nodeName, hostRoot, deviceNumbers, total] = process.argv.slice(2);
const checkpoints = new Set([1, 10, 100, 250, 500, 750, 1000].filter((n) => n <= Number(total)));
const config = parseAgentConfig({
  ...AGENT_DEFAULTS,
  nodeName,
  hostRoot,
  kubeconfig,
  deviceNumbers: parseDeviceOverrides(deviceNumbers ?? ''),
  vhv: { ...AGENT_DEFAULTS.vhv, enabled: false },
  taint: { ...AGENT_DEFAULTS.taint },
  logLevel: 'warn',
});
const agent = new Agent(config, loadKubeConfig({ kubeconfig }), createLogger('warn', { node: nodeName ?? '' }));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
for (let cycle = 1; cycle <= Number(total); cycle += 1) {
  await agent.cycle();
  if (checkpoints.has(cycle)) {
    gc();
    const usage = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ cycle, rss: usage.rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external })}\n`);
  }
}
process.exit(0);
