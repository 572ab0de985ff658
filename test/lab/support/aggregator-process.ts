import net from 'node:net';
import { startVirtgateProcess, type VirtgateProcess } from './virtgate-process.ts';

export { seriesValue } from './virtgate-process.ts';

export interface AggregatorProcess extends VirtgateProcess {
  get(pathname: string): Promise<Response>;
}

/** Runs `virtgate aggregator` as a real process, as the Deployment would, and waits until it serves HTTP. */
export async function startAggregatorProcess(args: string[], env: Record<string, string> = {}): Promise<AggregatorProcess> {
  const aggregator = await startVirtgateProcess('aggregator', args, env);
  return { ...aggregator, get: (pathname) => fetch(`${aggregator.url}${pathname}`) };
}

/** A loopback port nothing listens on (for an unreachable kubeconfig). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}
