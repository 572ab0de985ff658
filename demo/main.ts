/**
 * `npm run demo`: a local control plane with fake nodes, their agents and the aggregator, up until
 * Ctrl-C (SIGINT) or SIGTERM. See docs/demo.md.
 */
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { banner } from './banner.ts';
import { DemoPrerequisiteError, type RunningDemo, startDemo } from './demo.ts';
import { which } from './which.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);

const stopping = new AbortController();
let signals = 0;
function onSignal(signal: NodeJS.Signals): void {
  signals += 1;
  if (signals === 1) {
    say(`\n${signal}: stopping ...`);
    stopping.abort();
    return;
  }
  // A second signal: leave now. The control plane's watchdog notices within a second and kills
  // every process the demo recorded, then removes its directory.
  say(`${signal} again: exiting without waiting; the watchdog cleans up.`);
  process.exit(130);
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

async function main(): Promise<number> {
  let demo: RunningDemo;
  try {
    demo = await startDemo({ signal: stopping.signal, say });
  } catch (error) {
    if (stopping.signal.aborted) {
      say('Stopped before the demo was up; everything it started is gone.');
      return 0;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`virtgate demo: ${message}\n`);
    if (!(error instanceof DemoPrerequisiteError) && error instanceof Error && process.env.VIRTGATE_DEBUG) console.error(error);
    return 1;
  }
  const cli = `node ${path.relative(process.cwd(), path.join(PACKAGE_ROOT, 'cli/main.ts')) || 'cli/main.ts'}`;
  say(banner({ demo, kubectl: await which('kubectl'), cli }));
  await new Promise<void>((resolve) => {
    if (stopping.signal.aborted) resolve();
    stopping.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await demo.stop();
  say('Stopped: agents, aggregator, kube-apiserver and etcd are gone, and so is the temp directory.');
  return 0;
}

process.exitCode = await main();
