/**
 * Child process for the footprint benchmark: runs the compiled agent's own cycle (probe + publish)
 * back to back against the control plane and prints RSS after GC at the checkpoints as JSON lines.
 *
 * Not part of the build, and not run as it is: agent-footprint.ts strips its types and runs the
 * result with --expose-gc (the chart's --jitless leaves Node no WebAssembly, which Node's own type
 * stripping needs). It loads the agent from the dist/ directory it is given, so the figures are
 * those of the JavaScript that ships.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, kubeconfig, nodeName, hostRoot, total] = process.argv.slice(2);
if (!dist) throw new Error('usage: agent-cycles <dist> <kubeconfig> <node> <host-root> <cycles>');
/** A module of the build, typed as its source. */
async function compiled<Module>(file: string): Promise<Module> {
  return (await import(pathToFileURL(path.join(dist as string, file)).href)) as Module;
}
const { Agent } = await compiled<typeof import('../agent/agent.ts')>('agent/agent.js');
const { AGENT_DEFAULTS, parseAgentConfig } = await compiled<typeof import('../agent/config.ts')>('agent/config.js');
const { loadKubeConfig } = await compiled<typeof import('../core/kube/kubeconfig.ts')>('core/kube/kubeconfig.js');
const { createLogger } = await compiled<typeof import('../core/log.ts')>('core/log.js');

const checkpoints = new Set([1, 10, 100, 250, 500, 750, 1000].filter((n) => n <= Number(total)));
const config = parseAgentConfig({
  ...AGENT_DEFAULTS,
  nodeName,
  hostRoot,
  kubeconfig,
  vhv: { ...AGENT_DEFAULTS.vhv, enabled: false },
  taint: { ...AGENT_DEFAULTS.taint },
  logLevel: 'warn',
});
const agent = new Agent(config, loadKubeConfig({ kubeconfig }), createLogger('warn', { node: nodeName ?? '' }));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
for (let cycle = 1; cycle <= Number(total); cycle += 1) {
  // `cycle` is private: the agent runs it on its own schedule. A benchmark is the one caller that
  // needs it on demand, and TypeScript's element access reaches a private member, still type-checked.
  await agent['cycle']();
  if (checkpoints.has(cycle)) {
    gc();
    const usage = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ cycle, rss: usage.rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external })}\n`);
  }
}
process.exit(0);
